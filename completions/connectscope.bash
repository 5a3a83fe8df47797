# bash completion for connectscope.
# Install: connectscope completion bash > /etc/bash_completion.d/connectscope
# or add `source <(connectscope completion bash)` to ~/.bashrc.
#
# connectscope itself lists what can follow the words typed so far:
# `connectscope __complete WORD... CURRENT` prints one candidate a line
# (commands, flags, flag values, connector and worker names of the cluster
# the typed flags point at). Names come from the cluster, so each line is
# taken as one literal word: never split, never globbed, and quoted for the
# command line when it holds anything but plain characters.
_connectscope_complete() {
    # The words as typed, split on blanks only: bash's own COMP_WORDS also
    # splits at = and :, which cuts --fail-on=warn and host:port apart.
    local line="${COMP_LINE:0:COMP_POINT}"
    local -a words
    read -r -a words <<< "$line"
    [[ "$line" =~ [[:space:]]$ ]] && words+=("")
    local full="${words[${#words[@]}-1]}"
    # Bash replaces only its own current word, the tail of ours.
    local part="${COMP_WORDS[COMP_CWORD]}"
    local cut=$(( ${#full} - ${#part} ))
    (( cut < 0 )) && cut=0
    # A current word typed with quotes or backslashes is asked for as the
    # text it stands for.
    case "$full" in
        \'*) full="${full#\'}"; full="${full%\'}" ;;
        \"*) full="${full#\"}"; full="${full%\"}" ;;
        *\\*) full="${full//\\/}" ;;
    esac
    words[${#words[@]}-1]="$full"
    local c tail
    COMPREPLY=()
    while IFS= read -r c; do
        tail="${c:cut}"
        # Only plain characters go in as they are; anything else ($, ;,
        # backticks, *, blanks, quotes) is quoted so it stays one word.
        if [[ "$tail" == *[!A-Za-z0-9_.,:=@%+/-]* ]]; then
            printf -v tail '%q' "$tail"
        fi
        COMPREPLY+=("$tail")
    done < <("${words[0]}" __complete "${words[@]:1}" 2>/dev/null)
    # NAME= (plan --set) and W1, (plan --order) go on without a space.
    if (( ${#COMPREPLY[@]} == 1 )) && [[ "${COMPREPLY[0]}" == *[=,] ]]; then
        compopt -o nospace 2>/dev/null
    fi
}
# -o default falls back to file names (for --from, --worker-config, diff).
complete -o bashdefault -o default -F _connectscope_complete connectscope
