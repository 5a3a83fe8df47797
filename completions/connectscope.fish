# fish completion for connectscope.
# Install: connectscope completion fish > ~/.config/fish/completions/connectscope.fish
#
# connectscope lists what can follow the words typed so far:
# `connectscope __complete WORD... CURRENT` prints one candidate a line.
function __connectscope_complete
    set -l typed (commandline -opc)
    set -l cur (commandline -ct)
    $typed[1] __complete $typed[2..-1] "$cur" 2>/dev/null
end
# No -f: file names stay available for --from, --worker-config and diff.
complete -c connectscope -a '(__connectscope_complete)'
