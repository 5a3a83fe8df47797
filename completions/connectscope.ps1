# PowerShell completion for connectscope.
# Install: connectscope completion powershell | Out-String | Invoke-Expression
# (add that line to $PROFILE to keep it).
#
# connectscope lists what can follow the words typed so far:
# `connectscope __complete WORD... CURRENT` prints one candidate a line.
# Names come from the cluster: a candidate with anything but plain
# characters is inserted single-quoted (a ' or a typographic single quote
# doubled, as PowerShell reads them), so $(...), ;, backticks, commas and
# blanks stay one literal argument.
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
        ForEach-Object {
            $text = $_
            if ($text -cnotmatch '^[-\w.:/=+]+$' -or $text -eq '--%') {
                $text = "'" + ($text -replace '[''\u2018\u2019\u201A\u201B]', '$0$0') + "'"
            }
            [System.Management.Automation.CompletionResult]::new($text, $_, 'ParameterValue', $_)
        }
}
