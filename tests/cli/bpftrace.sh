#!/usr/bin/env bash
# tests/cli/bpftrace.sh: perfan on bpftrace 0.17's printed maps
# (testdata/bpftrace/): in every key layout, `perfan collapse` gives the
# stacks that an oracle of its own (Perl, below, told each file's layout
# by COMMAND) builds from the raw text, `perfan report` the counts per
# function, and the total the sum of the map's values; the flame graph
# draws them; stdin and a FIFO work; a cut or damaged output is a clear
# error with exit status 1.
# Run from the source tree with PERFAN_BIN set (ctest does both).
set -euo pipefail

: "${PERFAN_BIN:?set PERFAN_BIN to the perfan binary}"
TD=$(cd "${PERFAN_TESTDATA:-testdata}" && pwd)/bpftrace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

err() {
	printf 'FAIL: %s\n' "$*" >&2
	fail=1
}

# oracle FILE MAP LAYOUT MODE: MAP's entries in FILE as folded stacks
# (MODE stacks), the keys being LAYOUT (k kstack, u ustack, c comm, p pid),
# or (MODE funcs) "FUNC SELF TOTAL" per function, or (MODE total) the sum
# of the values, or (MODE entries) how many entries the map has.
oracle() {
	perl -MJSON::PP -e '
	my ($file, $map, $layout, $mode) = @ARGV;
	open(my $fh, "<", $file) or die "$file: $!";
	local $/; my $text = <$fh>;
	my @entries; # [key args, count]
	if ($text =~ /^\{/) {
		for my $l (split /\n/, $text) {
			next unless $l =~ /^\{/;
			my $m = decode_json($l);
			next unless $m->{type} eq "map";
			my $d = $m->{data}{$map} or next;
			for (keys %$d) {
				my @a = split /,/, $_, -1;
				push @entries, [@a ? \@a : [""], $d->{$_}];
			}
		}
	} else {
		while ($text =~ /^\Q$map\E\[(.*?)\]: (\d+)\n/msg) {
			my @a = split /, /, $1, -1;
			push @entries, [@a ? \@a : [""], $2];
		}
	}
	my (%stacks, %self, %total, $sum);
	for my $e (@entries) {
		my ($args, $n) = @$e;
		die "keys: @$args" if @$args != length $layout;
		my (%arg, @k, @u);
		for my $i (0 .. $#$args) {
			my $t = substr($layout, $i, 1), $a = $args->[$i];
			if ($t eq "k" || $t eq "u") {
				my @f;
				for (grep { length } split /\n/, $a) {
					my $perf = s/^\t[0-9a-f]+ //;
					s/^\s+//;
					s/ \(.*\)$// if $perf;
					s/\+\d+$//;
					$_ = $t eq "k" ? "[kernel.kallsyms]" : "[unknown]"
						if /^0x[0-9a-f]+$/;
					push @f, $_;
				}
				@f = reverse @f;
				if ($t eq "k") { @k = @f } else { @u = @f }
			} else {
				$arg{$t} = $a;
			}
		}
		my @root = exists $arg{c} ? ($arg{c}) : exists $arg{p} ? (":$arg{p}") : ();
		my @s = (@u, @k);
		$stacks{join ";", @root, @s} += $n;
		$sum += $n;
		next unless @s;
		$self{$s[-1]} += $n;
		my %seen;
		$total{$_} += $n for grep { !$seen{$_}++ } @s;
	}
	if ($mode eq "stacks") {
		# folded text has no line for an empty stack
		print "$_ $stacks{$_}\n" for sort grep { length } keys %stacks;
	} elsif ($mode eq "funcs") {
		printf "%s %d %d\n", $_, $self{$_} // 0, $total{$_} for sort keys %total;
	} elsif ($mode eq "entries") {
		print scalar(@entries), "\n";
	} else {
		print "$sum\n";
	}
	' "$@"
}

# perfan's "FUNC SELF TOTAL" per function from report --json -s sym
report_funcs() {
	perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my $c = (grep { $_->{event} eq $ARGV[0] } @{$d->{columns}})[0] or die "no column $ARGV[0]";
	print "TOTAL $c->{total}\n";
	printf "%s %d %d\n", $_->{sym}, $_->{self}, $_->{total}
		for sort { $a->{sym} cmp $b->{sym} } @{$c->{rows}};
	' "$1"
}

cases="kstack-ustack-comm-pid.txt:@:kucp kstack-ustack.txt:@:ku ustack.txt:@:u
kstack.txt:@:k comm-kstack.txt:@:ck ustack-comm.txt:@:uc ustack-perf.txt:@:u
kstack-perf-ustack-perf-pid.txt:@:kup two-maps.txt:@k:k two-maps.txt:@u:u
json.txt:@:kucp ustack-json.txt:@:u python-ustack.txt:@:u"
checked=0
for c in $cases; do
	f=${c%%:*} rest=${c#*:} map=${rest%%:*} layout=${rest#*:}
	what="$f $map"
	oracle "$TD/$f" "$map" "$layout" stacks >"$tmp/want" || { err "$what: oracle"; continue; }
	[ -s "$tmp/want" ] || err "$what: the oracle found no entries"
	"$PERFAN_BIN" collapse --event "$map" "$TD/$f" 2>"$tmp/e" | sort >"$tmp/got" ||
		err "$what: collapse: $(cat "$tmp/e")"
	cmp -s "$tmp/want" "$tmp/got" ||
		err "$what: collapse differs: $(diff "$tmp/want" "$tmp/got" | head -6)"
	# per function, and the total: the sum of the map's values
	sum=$(oracle "$TD/$f" "$map" "$layout" total)
	"$PERFAN_BIN" report --json -s sym --event "$map" "$TD/$f" >"$tmp/j" 2>"$tmp/e" ||
		err "$what: report: $(cat "$tmp/e")"
	report_funcs "$map" <"$tmp/j" >"$tmp/rf" || err "$what: report JSON"
	[ "$(head -1 "$tmp/rf")" = "TOTAL $sum" ] ||
		err "$what: total $(head -1 "$tmp/rf"), the values sum to $sum"
	oracle "$TD/$f" "$map" "$layout" funcs >"$tmp/wf"
	tail -n +2 "$tmp/rf" >"$tmp/gf"
	cmp -s "$tmp/wf" "$tmp/gf" ||
		err "$what: per function: $(diff "$tmp/wf" "$tmp/gf" | head -6)"
	"$PERFAN_BIN" report --event "$map" "$TD/$f" >"$tmp/t" 2>"$tmp/e" ||
		err "$what: text report: $(cat "$tmp/e")"
	grep -q "^# Samples: $sum  of event '$map'$" "$tmp/t" ||
		err "$what: no '# Samples: $sum' line"
	printf '%s: %s entries, %s stacks, %s samples\n' "$what" \
		"$(oracle "$TD/$f" "$map" "$layout" entries)" "$(wc -l <"$tmp/want")" "$sum"
	checked=$((checked + 1))
done
[ "$checked" = 13 ] || err "$checked of 13 layouts checked"

main=$TD/kstack-ustack-comm-pid.txt
"$PERFAN_BIN" collapse "$main" | sort >"$tmp/ref"
# kernel frames are the kernel's, user frames native
"$PERFAN_BIN" report --json "$main" >"$tmp/j"
perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>); my %k;
	for (@{$d->{columns}[0]{rows}}) { $k{$_->{sym}} = "$_->{dso} $_->{kind}" }
	exit !($k{vfs_write} eq "[kernel.kallsyms] kernel" && $k{hot_a} =~ / native$/);
' <"$tmp/j" || err "frame kinds: $(grep -o '"sym": "\(vfs_write\|hot_a\)"[^}]*' "$tmp/j" | head -2)"
# --pid: comm-PID roots
"$PERFAN_BIN" collapse --pid "$main" | cut -d';' -f1 | sort -u >"$tmp/roots"
[ "$(cat "$tmp/roots")" = "spin-$(grep -o ', spin, [0-9]*\]' "$main" | head -1 | tr -dc 0-9)" ] ||
	err "--pid roots: $(head -3 "$tmp/roots")"

# stdin, a FIFO, <(...)
"$PERFAN_BIN" collapse - <"$main" | sort >"$tmp/stdin"
cmp -s "$tmp/ref" "$tmp/stdin" || err "collapse - < file differs"
"$PERFAN_BIN" collapse <(cat "$main") | sort >"$tmp/proc"
cmp -s "$tmp/ref" "$tmp/proc" || err "collapse <(cat file) differs"
mkfifo "$tmp/fifo"
cat "$main" >"$tmp/fifo" &
"$PERFAN_BIN" report "$tmp/fifo" >"$tmp/fifo.out" 2>"$tmp/e" || err "report FIFO: $(cat "$tmp/e")"
wait
grep -q "^# Samples: $(oracle "$main" @ kucp total)  of event '@'" "$tmp/fifo.out" ||
	err "report FIFO: wrong total"

# the flame graph: an SVG with the hot functions
"$PERFAN_BIN" flamegraph -o "$tmp/fg.svg" "$main" 2>"$tmp/e" || err "flamegraph: $(cat "$tmp/e")"
grep -q '<svg' "$tmp/fg.svg" && grep -q 'hot_a' "$tmp/fg.svg" &&
	grep -q 'vfs_write' "$tmp/fg.svg" || err "flamegraph: no svg or frames"

# cut: the complete entries kept, a message naming the offset, status 1
size=$(wc -c <"$main")
head -c $((size / 2)) "$main" >"$tmp/cut.txt"
set +e
"$PERFAN_BIN" report "$tmp/cut.txt" >"$tmp/out" 2>"$tmp/e"
rc=$?
set -e
[ $rc = 1 ] || err "cut: exit status $rc, not 1"
grep -q "cut.txt: offset [0-9]* (line [0-9]*): bpftrace output: " "$tmp/e" ||
	err "cut: message '$(cat "$tmp/e")'"
# damaged: a stack line emptied
awk 'NR == 8 { print ""; next } { print }' "$main" >"$tmp/bad.txt"
set +e
"$PERFAN_BIN" collapse "$tmp/bad.txt" >/dev/null 2>"$tmp/e"
rc=$?
set -e
[ $rc = 1 ] || err "damaged: exit status $rc, not 1"
grep -q "bad.txt: offset [0-9]* (line 8): bpftrace output: an empty line in a stack" "$tmp/e" ||
	err "damaged: message '$(cat "$tmp/e")'"

exit $fail
