#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Translations: the German catalog is valid and found
# by the program in the build tree through KDMESG_LOCALEDIR.

load helpers

SRC="$TESTS/.."

setup() {
        [ -f "$BUILDDIR/po/de/LC_MESSAGES/kdmesg.mo" ] || skip "built without translations (-Dnls=false)"
        export KDMESG_LOCALEDIR="$BUILDDIR/po"
}

@test "LANGUAGE=de kdmesg --help prints the German help" {
        LANGUAGE=de run --separate-stderr "$KDMESG" --help
        [ "$status" -eq 0 ]
        [ -z "$stderr" ]
        [ "${lines[0]}" = "Aufruf:" ]
        [[ "$output" == *"Eingabe:"* ]]
        [[ "$output" == *" -h, --help                  diese Hilfe anzeigen"* ]]
        [[ "$output" == *"Näheres in kdmesg(1), kdmesg-formats(5),"* ]]
}

@test "LANGUAGE=de: the German help fits in 80 columns and 100 lines" {
        run long_lines 79 < <(LANGUAGE=de "$KDMESG" --help)
        [ -z "$output" ]
        [ "$(LANGUAGE=de "$KDMESG" --help | wc -l)" -le 100 ]
}

@test "LANGUAGE=de: errors are German too" {
        LANGUAGE=de run --separate-stderr "$KDMESG" --no-such-option
        [ "$status" -eq 1 ]
        [ "${stderr_lines[0]}" = "kdmesg: unbekannte Option »--no-such-option«" ]
        [ "${stderr_lines[1]}" = "»kdmesg --help« gibt weitere Informationen." ]
}

@test "po/de.po is a valid catalog with no fuzzy or untranslated entries" {
        run msgfmt --check --statistics -o /dev/null "$SRC/po/de.po"
        [ "$status" -eq 0 ]
        [[ "$output" != *fuzzy* ]]
        [[ "$output" != *untranslated* ]]
}

# Every string the sources mark with _() or N_() -- in any file, listed in
# po/POTFILES.in or not -- must have a German translation that is not fuzzy.
@test "po/de.po translates every translatable string in the sources" {
        local pot="$BATS_TEST_TMPDIR/sources.pot" merged="$BATS_TEST_TMPDIR/de.po"
        local -a files
        mapfile -t files < <(cd "$SRC" && find src lib -name '*.[ch]' | sort)
        [ "${#files[@]}" -gt 10 ]
        (cd "$SRC" && xgettext --from-code=UTF-8 --language=C --keyword=_ --keyword=N_ --keyword=P_:1,2 \
                --force-po -o "$pot" "${files[@]}")
        grep -qF 'msgid "write error"' "$pot"
        msgmerge --quiet --no-wrap -o "$merged" "$SRC/po/de.po" "$pot"
        echo "untranslated or fuzzy in po/de.po:"
        msgattrib --no-wrap --untranslated "$merged" | sed '1,/^$/d'
        msgattrib --no-wrap --only-fuzzy "$merged" | sed '1,/^$/d'
        run msgfmt --check --statistics -o /dev/null "$merged"
        echo "$output"
        [ "$status" -eq 0 ]
        [[ "$output" == *" translated message"* ]]
        [[ "$output" != *fuzzy* ]]
        [[ "$output" != *untranslated* ]]
}

@test "the build generates kdmesg.pot from the sources" {
        [ -f "$BUILDDIR/po/kdmesg.pot" ]
        grep -qF 'msgid "write error"' "$BUILDDIR/po/kdmesg.pot"
}
