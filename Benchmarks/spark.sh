#!/usr/bin/env bash
# Spark benchmark: Spark/analyze.py under spark-submit --master local[1] and local[2] against
# `fetcher analyze` alone, on a generated combined log of SIZE_MB (default 848, 5 M lines) on a
# tmpfs, alternating, medians; the job's partials and Spark's scratch files on that tmpfs too
# (spark.local.dir), so that no run waits for the disk. The job's fixed cost is the same job on
# the log's first 1,000 lines, run right after it; its work part is the median of each run's
# time less the fixed cost measured beside it (the fixed cost alone swings by a second between
# runs), and also the median run less the median fixed cost; and the same from the times the job
# reports for its splits and its last merge. Reports the work part over fetcher's time (target
# <= 2x on local[2]) and local[1]'s work part over local[2]'s (target >= 1.8x), each ratio with
# its 90% interval (a bootstrap: the runs drawn again at random, 5,000 times), so that a ratio
# shown reliably is one whose interval lies above the target; and every run's times (whole, and
# as the job times itself), for pooling sets.
# Beside them, the machine's own ceiling for that ratio: the job's work without Spark, as
# fetcher does it on one core (the whole log, one thread, then loading its partial) against two
# (each half on a thread, both at once, then merging the two partials); and the splits alone;
# and, for the machine itself, work that stays in the cache (SHA-256 of one MiB, over and over)
# done twice in a row against twice at once.
#
# Usage: Benchmarks/spark.sh [SIZE_MB (default 848)] [RUNS (default 3)]
# FETCHER=BINARY measures that build instead of building this tree's.
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-848}
runs=${2:-3}

source Benchmarks/lib.sh
if [ -n "${FETCHER:-}" ]; then fetcher=$FETCHER; else build_fetcher; fi
submit=$PWD/$(Spark/setup.sh)
export PYSPARK_PYTHON="$(dirname "$submit")/python"
make_work spark

python3 Benchmarks/generate_log.py "$work/big.log" "$size_mb" 1
head -n 1000 "$work/big.log" >"$work/tiny.log"
echo "log: $(wc -l <"$work/big.log") lines, $(du -h "$work/big.log" | cut -f1)"
job() {  # MASTER LOG: the job, its standard error kept in $work/job.err
  "$submit" --master "$1" --conf "spark.local.dir=$work/spark" Spark/analyze.py \
    --fetcher "$fetcher" --top 10 --json "$2" 2>"$work/job.err"
}
inside() {  # the seconds the last job says its splits and its last merge took
  sed -nE 's/.* in ([0-9.]+) s; a last merge .* in ([0-9.]+) s$/\1 \2/p' "$work/job.err" |
    awk '{ print $1 + $2 }'
}
# The job's answer is fetcher's.
cmp <(job 'local[2]' "$work/big.log" 2>/dev/null) <("$fetcher" analyze --top 10 --json "$work/big.log" 2>/dev/null)

bytes=$(stat -c %s "$work/big.log")
half=$((bytes / 2))
split() {  # RANGE OUT: one split as an executor runs it, on one thread
  "$fetcher" analyze "$work/big.log" --byte-range "$1" --partial-out "$2" --jobs 1
}
halves() { split "0-$half" "$work/h1.partial" & split "$half-$bytes" "$work/h2.partial"; wait; }
spin() { python3 -c 'import hashlib; b = bytes(1 << 20); h = hashlib.sha256(); [h.update(b) for _ in range(900)]'; }
spins() { spin; spin; }
spinning() { spin & spin; wait; }
declare -A times=()
for _ in $(seq "$runs"); do
  times[fetcher]+=" $(seconds "$fetcher" analyze --top 10 --json "$work/big.log")"
  times[split1]+=" $(seconds split "0-$bytes" "$work/whole.partial")"
  times[load1]+=" $(seconds "$fetcher" analyze --top 10 --json --merge "$work/whole.partial")"
  times[split2]+=" $(seconds halves)"
  times[load2]+=" $(seconds "$fetcher" analyze --top 10 --json --merge "$work/h1.partial" "$work/h2.partial")"
  times[spin1]+=" $(seconds spins)"
  times[spin2]+=" $(seconds spinning)"
  for cores in 1 2; do
    times[job$cores]+=" $(seconds job "local[$cores]" "$work/big.log")"
    times[inside$cores]+=" $(inside)"
    times[fixed$cores]+=" $(seconds job "local[$cores]" "$work/tiny.log")"
    times[insidefixed$cores]+=" $(inside)"
  done
done
python3 - "${times[fetcher]}" "${times[job1]}" "${times[fixed1]}" "${times[job2]}" "${times[fixed2]}" \
  "${times[inside1]}" "${times[insidefixed1]}" "${times[inside2]}" "${times[insidefixed2]}" \
  "${times[split1]}" "${times[load1]}" "${times[split2]}" "${times[load2]}" \
  "${times[spin1]}" "${times[spin2]}" <<'PY'
import random, statistics, sys
(fetcher, job1, fixed1, job2, fixed2, in1, infixed1, in2, infixed2, split1, load1, split2, load2,
 spin1, spin2) = ([float(x) for x in a.split()] for a in sys.argv[1:16])
median = statistics.median

def interval(ratio, *samples):  # ratio's 5th and 95th percentiles over the runs resampled
    draw = random.Random(0)
    ratios = sorted(ratio(*(draw.choices(s, k=len(s)) for s in samples)) for _ in range(5000))
    return f"90% interval {ratios[250]:.2f}x to {ratios[4750]:.2f}x"

def of_medians(a, b):
    return median(a) / median(b)

def of_differences(job1, fixed1, job2, fixed2):
    return (median(job1) - median(fixed1)) / (median(job2) - median(fixed2))

fetcher = median(fetcher)
works1 = [j - f for j, f in zip(job1, fixed1)]
works2 = [j - f for j, f in zip(job2, fixed2)]
work1, work2 = median(works1), median(works2)
print(f"fetcher analyze alone: {fetcher:.2f} s")
print(f"local[2]: {median(job2):.2f} s, fixed cost {median(fixed2):.2f} s, work {work2:.2f} s = {work2 / fetcher:.1f}x fetcher (target <= 2x)")
print(f"local[1]: {median(job1):.2f} s, fixed cost {median(fixed1):.2f} s, work {work1:.2f} s")
print(f"local[1] / local[2] on the work (target >= 1.8x): each run less the fixed cost beside it "
      f"{work1 / work2:.2f}x, {interval(of_medians, works1, works2)}; the median run less the median "
      f"fixed cost {of_differences(job1, fixed1, job2, fixed2):.2f}x, "
      f"{interval(of_differences, job1, fixed1, job2, fixed2)}")
insides1 = [j - f for j, f in zip(in1, infixed1)]
insides2 = [j - f for j, f in zip(in2, infixed2)]
inside1, inside2 = median(insides1), median(insides2)
print(f"as the job times itself (its splits and last merge, less the small log's): local[2] {inside2:.2f} s = {inside2 / fetcher:.1f}x fetcher, local[1] {inside1:.2f} s, {inside1 / inside2:.2f}x, "
      f"{interval(of_medians, insides1, insides2)}")
for cores, jobs, fixeds, insides, insidefixeds in (
        (2, job2, fixed2, in2, infixed2), (1, job1, fixed1, in1, infixed1)):
    print(f"runs of local[{cores}], the job and its fixed cost:",
          " ".join(f"{j:.2f}/{f:.2f}" for j, f in zip(jobs, fixeds)))
    print(f"runs of local[{cores}] as the job times itself, the log and the small log:",
          " ".join(f"{j:.2f}/{f:.2f}" for j, f in zip(insides, insidefixeds)))
print(f"the machine's ceiling, without Spark: one core {median(split1):.2f} s split + {median(load1):.2f} s load, "
      f"two cores {median(split2):.2f} s splits + {median(load2):.2f} s merge: "
      f"{median(a + b for a, b in zip(split1, load1)) / median(a + b for a, b in zip(split2, load2)):.2f}x; "
      f"the splits alone {median(split1) / median(split2):.2f}x; "
      f"work in the cache {median(a / b for a, b in zip(spin1, spin2)):.2f}x")
PY
