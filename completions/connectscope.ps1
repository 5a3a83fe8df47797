# PowerShell completion for connectscope.
# Install: connectscope completion powershell | Out-String | Invoke-Expression
# (add that line to $PROFILE to keep it).
#
# connectscope lists what can follow the words typed so far:
# `connectscope __complete WORD... CURRENT` prints one candidate a line.
Register-ArgumentCompleter -Native -CommandName connectscope -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $typed = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
    if ($wordToComplete -ne '' -and $typed.Count -gt 0) {
        $typed = @($typed | Select-Object -First ($typed.Count - 1))
    }
    $exe = $commandAst.CommandElements[0].ToString()
    # An empty current word is passed as '""' so older PowerShell keeps it.
    $current = if ($wordToComplete -eq '') { '""' } else { $wordToComplete }
    & $exe __complete @typed $current 2>$null |
        ForEach-Object { [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_) }
}
