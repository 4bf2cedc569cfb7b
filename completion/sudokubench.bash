# bash completion for sudokubench — installed as share/bash-completion/completions/sudokubench.
#
# Nothing is hard-coded: the commands come from `sudokubench --help`, each command's options
# from `sudokubench COMMAND --help`, an option's values from the program's registries
# (`sudokubench --complete-values COMMAND OPTION`: pipelines, fast+T forms, SIMD levels,
# search modes) or else from its help line when that line is a plain word list ("solution,
# tdoku, csv, json, pretty (default solution)"), so the completion follows the program it
# completes. Other options with a metavariable complete file names.

# Prints the option words (-x, --long) of a command's help, one per line.
_sudokubench_options()
{
    "$1" "$2" --help 2>/dev/null | grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9-]+' |
        grep -oE -- '--?[a-zA-Z0-9-]+' | awk '!seen[$0]++'
}

# Prints the values an option takes when its help line lists them, else nothing.
_sudokubench_values()
{
    "$1" "$2" --help 2>/dev/null | awk -v opt="$3" '
        # the description of opt: its help line after the metavariable, and the
        # continuation lines under it
        hit && /^          +[^ -]/ { desc = desc " " $0; next }
        hit { exit }
        {
            line = $0
            sub(/^ +/, "", line)
            n = split(line, w, /[ ,]+/)
            for (i = 1; i <= n && i <= 3; i++) if (w[i] == opt) hit = 1
            if (!hit) next
            desc = line
            sub(/^(-[a-zA-Z], )?--[a-z0-9-]+ [A-Z]+ +/, "", desc)
        }
        END {
            if (!hit) exit
            gsub(/\([^)]*\)/, "", desc)   # "(default ...)", "(81 chars)"
            sub(/\(.*/, "", desc)           # a parenthesis left open
            sub(/^[^:]*: /, "", desc)       # a "clue pattern: " lead-in
            gsub(/ or /, ", ", desc)
            gsub(/  +/, " ", desc)
            m = split(desc, v, / *, */)
            while (m > 0 && v[m] ~ /^ *$/) m--
            if (m < 2) exit
            out = ""
            for (i = 1; i <= m; i++) {
                word = v[i]; sub(/^ +/, "", word)
                if (i == m) sub(/ .*/, "", word)  # "neon for the uniqueness check"
                if (word !~ /^[a-z][a-z0-9]*$/) exit
                out = out " " word
            }
            print out
        }'
}

_sudokubench()
{
    local cur prev prog cmd i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    prog=${COMP_WORDS[0]}
    cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac
    done
    if [[ -z $cmd ]]; then
        local cmds
        cmds=$("$prog" --help 2>/dev/null | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
        COMPREPLY=($(compgen -W "$cmds --help --version" -- "$cur"))
        return
    fi
    if [[ $prev == -* ]]; then
        local values
        values=$("$prog" --complete-values "$cmd" "$prev" 2>/dev/null)
        [[ -n ${values// /} ]] || values=$(_sudokubench_values "$prog" "$cmd" "$prev")
        if [[ -n ${values// /} ]]; then
            COMPREPLY=($(compgen -W "$values" -- "$cur"))
            return
        fi
        # an option with a metavariable (N, FILE, ...) takes a value: complete files
        if "$prog" "$cmd" --help 2>/dev/null | grep -qE -- "(^|[ ,])$prev [A-Z]+"; then
            COMPREPLY=($(compgen -f -- "$cur"))
            return
        fi
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_sudokubench_options "$prog" "$cmd")" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _sudokubench sudokubench
