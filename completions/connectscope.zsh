#compdef connectscope
# zsh completion for connectscope.
# Install: connectscope completion zsh > "${fpath[1]}/_connectscope"
# or add `source <(connectscope completion zsh)` to ~/.zshrc (after compinit).
#
# connectscope lists what can follow the words typed so far:
# `connectscope __complete WORD... CURRENT` prints one candidate a line.
_connectscope() {
    local -a candidates
    # The words as they stand for (quotes removed), candidates one a line:
    # each is one match, which compadd quotes as it inserts it.
    candidates=("${(@f)$(${words[1]} __complete "${(@Q)words[2,CURRENT]}" 2>/dev/null)}")
    candidates=("${(@)candidates:#}")
    if (( ${#candidates} )); then
        # NAME= and W1, go on without a space.
        if (( ${#candidates} == 1 )) && [[ "${candidates[1]}" == *[=,] ]]; then
            compadd -U -S '' -- "${candidates[@]}"
        else
            compadd -U -- "${candidates[@]}"
        fi
    else
        _files
    fi
}
if [[ "${funcstack[1]}" == "_connectscope" ]]; then
    _connectscope "$@"
else
    compdef _connectscope connectscope
fi
