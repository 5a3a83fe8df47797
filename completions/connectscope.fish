# fish completion for connectscope.
# Install: connectscope completion fish > ~/.config/fish/completions/connectscope.fish
#
# connectscope lists what can follow the words typed so far:
# `connectscope __complete WORD... CURRENT` prints one candidate a line.
# Each line is one literal candidate (fish escapes it as it inserts it).
function __connectscope_complete
    set -l typed (commandline -opc)
    set -l cur (commandline -ct)
    set -l out ($typed[1] __complete $typed[2..-1] "$cur" 2>/dev/null)
    if set -q out[1]
        # fish expands a leading ~ of a candidate as it inserts it: such a
        # name cannot be offered as itself, so it is left out.
        string match -v -- '~*' $out
    else
        # Nothing from connectscope: file names (--from, --worker-config, diff).
        __fish_complete_path "$cur"
    end
end
complete -c connectscope -f -a '(__connectscope_complete)'
