# fish completion for connectscope.
# Install: connectscope completion fish > ~/.config/fish/completions/connectscope.fish
#
# connectscope lists what can follow the words typed so far when it is run
# with the hidden --generate-bash-completion flag.
function __connectscope_complete
    set -l typed (commandline -opc)
    set -l cur (commandline -ct)
    if string match -q -- '-*' $cur
        $typed[1] $typed[2..-1] $cur --generate-bash-completion 2>/dev/null
    else
        $typed[1] $typed[2..-1] --generate-bash-completion 2>/dev/null
    end
end
# No -f: file names stay available for --from and --worker-config.
complete -c connectscope -a '(__connectscope_complete)'
