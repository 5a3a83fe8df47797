# PowerShell completion for connectscope.
# Install: connectscope completion powershell | Out-String | Invoke-Expression
# (add that line to $PROFILE to keep it).
#
# connectscope lists what can follow the words typed so far when it is run
# with the hidden --generate-bash-completion flag.
Register-ArgumentCompleter -Native -CommandName connectscope -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $typed = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
    if ($wordToComplete -ne '' -and $typed.Count -gt 0) {
        $typed = @($typed | Select-Object -First ($typed.Count - 1))
    }
    if ($wordToComplete.StartsWith('-')) {
        $typed += $wordToComplete
    }
    $exe = $commandAst.CommandElements[0].ToString()
    & $exe @typed --generate-bash-completion 2>$null |
        Where-Object { $_ -like "$wordToComplete*" } |
        ForEach-Object { [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_) }
}
