#!/usr/bin/env python3
"""`fetcher analyze` on Apache Spark: the same output, the work on the executors.

    spark-submit [--files /path/to/fetcher] Spark/analyze.py [--fetcher PATH] [--splits N]
        ANALYZE-OPTIONS INPUT...

Prints to standard output exactly what `fetcher analyze ANALYZE-OPTIONS INPUT...` prints. INPUT
is anything Spark reads (file://, hdfs://, webhdfs://, s3a://, globs); inputs are read in the
order given, lines in file order. A file that fetcher reads itself is cut into byte ranges: a
path or file:// (which the executors see at the same path), or a webhdfs:// or swebhdfs:// file
(not a glob), which fetcher reads through WebHDFS's REST API (`user.name` from HADOOP_USER_NAME
when set; --cacert, -k and --proxy hold for the driver's requests too). An executor is sent
only (file, start, end) and runs `fetcher analyze FILE --byte-range START-END`, which reads the
lines that begin in the range (a gzip file is one range). Any other input (hdfs://, s3a://, a
glob of webhdfs://) is read by Spark and its lines piped to fetcher. Each split becomes a
partial result, written with its index; neighbouring partials are merged in order, in parallel,
round after round, until at most four are left, which the driver joins where they lie (`fetcher
analyze --merge`) with the output options. In local mode the partials are files of a folder the
executors share with the driver (in spark.local.dir, or SPARK_LOCAL_DIRS, as Spark's own
scratch files; else the system's temporary folder), not bytes through Spark. The job says on
standard error which way each input was read, and how long the splits and the last merge took.
Standard library and pyspark only.
"""
import atexit
import itertools
import json
import os
import re
import shutil
import ssl
import stat
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

# The options of `fetcher analyze` that take a value; any other option is a flag.
VALUE_OPTIONS = {
    "--length", "--top", "--log-format", "--json-keys", "--session-gap", "--client",
    "--status", "--method", "--since", "--until", "--exclude-ip", "--bots-file", "--panels",
    "--funnel", "--jobs", "-j", "--cacert", "--proxy",
}
# Options whose value is a file every executor reads: shipped with the job (addFile) and named
# by its base name there.
SHIPPED_OPTIONS = ("--bots-file", "--cacert")
# Options that shape only what is printed: given to the last merge, not to the executors.
OUTPUT_OPTIONS = {"--top", "--json", "--csv", "--entry", "--exit"}
REFUSED = {
    "--merge", "--partial-out", "--refresh", "-u", "--user", "-H", "--header", "--byte-range",
}


class JobError(Exception):
    """A reason to stop, printed as one line."""


# spark-submit runs this script with its standard error joined to its standard output, so a
# line for standard error goes through the JVM's System.err once a SparkContext exists.
_spark = None


def say(line):
    """Writes `line` to spark-submit's standard error."""
    if _spark is not None:
        _spark._jvm.System.err.println(line)
    else:
        print(line, file=sys.stderr)


def parse(arguments):
    """(fetcher, splits, reading options, output options, inputs) from the command line."""
    fetcher, splits = None, None
    reading, output, inputs = [], [], []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        name, has_value, value = argument.partition("=")
        if argument == "--":
            inputs += arguments[index + 1:]
            break
        if name in ("--fetcher", "--splits"):
            if not has_value:
                index += 1
                if index == len(arguments):
                    raise JobError(f"{name} needs a value")
                value = arguments[index]
            if name == "--fetcher":
                fetcher = value
            else:
                if not value.isdigit() or int(value) < 1:
                    raise JobError("--splits must be a positive number")
                splits = int(value)
        elif name in REFUSED:
            raise JobError(f"{name} is not for the Spark job: give inputs Spark can read")
        elif argument.startswith("-") and argument != "-":
            words = [argument]
            if name in VALUE_OPTIONS:
                # NAME VALUE, as two words whichever way given, so that it is found by name.
                if not has_value:
                    index += 1
                    if index == len(arguments):
                        raise JobError(f"{name} needs a value")
                    value = arguments[index]
                words = [name, value]
            (output if name in OUTPUT_OPTIONS else reading).extend(words)
        elif argument == "-":
            raise JobError("standard input cannot be split: give a path Spark can read")
        else:
            inputs.append(argument)
        index += 1
    if not inputs:
        raise JobError("give at least one input")
    return fetcher, splits, reading, output, inputs


def executable(path):
    """`path` as an executable file (a file shipped with --files may lose its mode)."""
    if not os.access(path, os.X_OK):
        try:
            os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        except OSError:
            pass
    return path


def find_fetcher(given):
    """The fetcher binary on this node: --fetcher, one shipped with --files, or on PATH."""
    if given:
        return executable(given)
    try:
        from pyspark import SparkFiles

        shipped = os.path.join(SparkFiles.getRootDirectory(), "fetcher")
        if os.path.isfile(shipped):
            return executable(shipped)
    except Exception:  # noqa: BLE001 - no SparkContext here: not shipped
        pass
    return shutil.which("fetcher") or "fetcher"


def run_fetcher(fetcher, arguments, feed=None):
    """Runs fetcher; returns its standard output. `feed` (an iterable of byte lines) goes to
    its standard input from a thread, so that neither pipe can fill and stall the other."""
    try:
        process = subprocess.Popen(
            [fetcher] + arguments,
            stdin=subprocess.PIPE if feed is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as error:
        raise JobError(f"cannot run fetcher ({fetcher}): {error.strerror}") from None
    failure = []

    def write():
        try:
            lines = iter(feed)
            # Thousands of lines a write: one write a line costs more than the analysis.
            while batch := list(itertools.islice(lines, 8192)):
                batch.append(b"")
                process.stdin.write(b"\n".join(batch))
            process.stdin.close()
        except Exception as error:  # noqa: BLE001 - reported with fetcher's own error
            failure.append(error)
            process.stdin.close()

    writer = threading.Thread(target=write) if feed is not None else None
    if writer:
        writer.start()
    output = process.stdout.read()
    errors = process.stderr.read()
    process.wait()
    if writer:
        writer.join()
    if process.returncode != 0 or failure:
        lines = errors.decode("utf-8", "replace").strip().splitlines()
        said = [line for line in lines if line.startswith(("Error:", "fetcher:"))]
        reason = (said or lines or [repr(failure[0]) if failure else "no reason given"])[0]
        raise JobError(f"fetcher exited with status {process.returncode}: {reason}")
    return output


def merge_partials(fetcher, partials, extra=(), into=None):
    """The merge of partial results, in order, each given as bytes or as the path of its file
    (a str): a partial result (as bytes, or with `into` written to that path, which is
    returned), or with `extra` output options, what fetcher prints."""
    with tempfile.TemporaryDirectory(prefix="fetcher-spark-") as folder:
        paths = []
        for number, partial in enumerate(partials):
            if isinstance(partial, str):
                paths.append(partial)
                continue
            path = os.path.join(folder, f"{number}.partial")
            with open(path, "wb") as file:
                file.write(partial)
            paths.append(path)
        if extra is None:
            printed = run_fetcher(fetcher, ["analyze", "--partial-out", into or "-", "--merge"] + paths)
            return into or printed
        return run_fetcher(fetcher, ["analyze"] + list(extra) + ["--merge"] + paths)


def local_file(name):
    """The path of `name` when fetcher reads it itself: a regular file here (a path or
    file://), seen by the executors at the same path; None for anything else."""
    path = name[len("file://"):] if name.startswith("file://") else name
    if "://" in path or not os.path.isfile(path):
        return None
    return path


def local_size(path):
    """The size of the file at `path` and its first two bytes."""
    with open(path, "rb") as file:
        return os.path.getsize(path), file.read(2)


def webhdfs_file(name):
    """The WebHDFS REST URL by which fetcher reads `name`, a webhdfs:// or swebhdfs:// file
    (`http(s)://HOST:PORT/webhdfs/v1/PATH?op=OPEN`, Hadoop's default ports 9870 and 9871);
    None for any other input, or a glob, which Spark lists."""
    parts = urllib.parse.urlsplit(name)
    if parts.scheme not in ("webhdfs", "swebhdfs") or not parts.hostname:
        return None
    if any(character in parts.path for character in "*?[{"):
        return None
    secure = parts.scheme == "swebhdfs"
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    query = {"op": "OPEN"}
    if os.environ.get("HADOOP_USER_NAME"):
        query["user.name"] = os.environ["HADOOP_USER_NAME"]
    return (f"{'https' if secure else 'http'}://{host}:{parts.port or (9871 if secure else 9870)}"
            f"/webhdfs/v1{parts.path or '/'}?{urllib.parse.urlencode(query)}")


class NeedsAuthentication(Exception):
    """WebHDFS asks for an authentication that fetcher does not give (Kerberos, by SPNEGO)."""


def option_value(words, name):
    """The value of the last `name VALUE` in `words` (options as `parse` leaves them), or None."""
    values = [value for word, value in zip(words, words[1:]) if word == name]
    return values[-1] if values else None


def webhdfs_opener(reading):
    """The driver's way to WebHDFS, with the options fetcher reads it with: `--cacert` (that
    file's authorities instead of the system's), `-k`/`--insecure`, `--proxy` (an http(s)
    proxy; "" for none); without them, the environment's proxy variables, as fetcher."""
    authorities = option_value(reading, "--cacert")
    try:
        context = ssl.create_default_context(cafile=authorities)
    except ssl.SSLError as error:
        raise JobError(f"--cacert {authorities}: cannot load it: {error}") from None
    if "-k" in reading or "--insecure" in reading:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    handlers = [urllib.request.HTTPSHandler(context=context)]
    proxy = option_value(reading, "--proxy")
    if proxy:
        if urllib.parse.urlsplit(proxy).scheme not in ("http", "https"):
            raise JobError(f"--proxy {proxy}: the driver asks WebHDFS through an http(s) proxy only")
        handlers.append(urllib.request.ProxyHandler({"http": proxy, "https": proxy}))
    elif proxy == "":
        handlers.append(urllib.request.ProxyHandler({}))
    return urllib.request.build_opener(*handlers)


def webhdfs_size(name, url, opener):
    """The size of the WebHDFS file at `url` (GETFILESTATUS) and its first two bytes, asked
    through `opener`; raises NeedsAuthentication when WebHDFS answers 401."""
    def request(parameters):
        parts = urllib.parse.urlsplit(url)
        query = dict(urllib.parse.parse_qsl(parts.query), **parameters)
        try:
            with opener.open(parts._replace(query=urllib.parse.urlencode(query)).geturl(),
                             timeout=60) as response:
                return response.read()
        except urllib.error.HTTPError as error:
            if error.code == 401:
                raise NeedsAuthentication() from None
            try:
                reason = ": " + json.loads(error.read())["RemoteException"]["message"]
            except Exception:  # noqa: BLE001 - no RemoteException: the status says it
                reason = ""
            raise JobError(f"{name}: WebHDFS answered HTTP {error.code} to {parameters['op']}{reason}") from None
        except (OSError, ValueError) as error:
            reason = getattr(error, "reason", error)
            reason = getattr(reason, "strerror", None) or reason
            raise JobError(f"{name}: cannot reach WebHDFS at {parts.netloc}: {reason}") from None

    try:
        size = int(json.loads(request({"op": "GETFILESTATUS"}))["FileStatus"]["length"])
    except (KeyError, TypeError, ValueError):
        raise JobError(f"{name}: WebHDFS's GETFILESTATUS names no length") from None
    return size, request({"op": "OPEN", "offset": "0", "length": "2"}) if size else b""


def byte_ranges(size, head, target):
    """(start, end) ranges of about `target` bytes that tile a file of `size` bytes that begin
    with `head`; one for gzip, whose range holding byte 0 reads all of it."""
    if head == b"\x1f\x8b" or size == 0:
        return [(0, max(size, 1))]
    return [(start, min(size, start + target)) for start in range(0, size, target)]


def scratch_folder(spark_context):
    """A new folder for the partials of a local job, in Spark's own scratch space, where its
    shuffle files go: the first of SPARK_LOCAL_DIRS or spark.local.dir, else the system's
    temporary folder. A tmpfs there spares each partial's flush to the disk."""
    given = os.environ.get("SPARK_LOCAL_DIRS") or spark_context.getConf().get("spark.local.dir", "")
    root = given.split(",")[0].strip() or None
    try:
        if root:
            os.makedirs(root, exist_ok=True)
        return tempfile.mkdtemp(prefix="fetcher-spark-", dir=root)
    except OSError as error:
        raise JobError(f"cannot make a folder for the partials in {root or tempfile.gettempdir()}: "
                       f"{error.strerror}") from None


def check_inputs(spark_context, inputs):
    """Fails with the first input that names no file."""
    jvm = spark_context._jvm
    configuration = spark_context._jsc.hadoopConfiguration()
    for name in inputs:
        path = jvm.org.apache.hadoop.fs.Path(name)
        try:
            found = path.getFileSystem(configuration).globStatus(path)
        except Exception as error:  # noqa: BLE001 - a Java exception, said in one line
            # py4j's own first line names only the call; the Java exception says the cause.
            java = getattr(error, "java_exception", None)
            said = java.toString() if java is not None else str(error)
            raise JobError(f"{name}: {(said.splitlines() or ['no reason given'])[0]}") from None
        if not found:
            raise JobError(f"{name}: no such file")


def main(arguments):
    from pyspark import SparkContext, SparkFiles

    global _spark
    spark = _spark = SparkContext.getOrCreate()
    spark.setLogLevel("ERROR")
    fetcher_path, splits, reading, output, inputs = parse(arguments)
    driver_fetcher = find_fetcher(fetcher_path)
    if not (os.path.isfile(driver_fetcher) or shutil.which(driver_fetcher)):
        raise JobError(f"fetcher not found ({driver_fetcher}): give --fetcher PATH or spark-submit --files PATH")
    # The options are checked once, here, on an empty input: a mistake is one line, not a
    # failed task per split.
    run_fetcher(driver_fetcher, ["analyze", "-", "--partial-out", "-"] + reading + output, [])

    # The files fetcher reads itself, each with its size, its first two bytes and how it is
    # read: local paths, and WebHDFS files, read through the REST API (and so is this check).
    direct = {}
    opener = webhdfs_opener(reading) if any(webhdfs_file(name) for name in inputs) else None
    for name in inputs:
        if path := local_file(name):
            direct[name] = (path, *local_size(path), "")
        elif url := webhdfs_file(name):
            try:
                direct[name] = (url, *webhdfs_size(name, url, opener), " through WebHDFS")
            except NeedsAuthentication:
                say(f"analyze.py: {name}: WebHDFS asks for an authentication that fetcher does not give; "
                    "Spark reads it")
    check_inputs(spark, [name for name in inputs if name not in direct])
    shipped = {}
    for option in SHIPPED_OPTIONS:
        if path := option_value(reading, option):
            spark.addFile(path)
            shipped[option] = os.path.basename(path)

    partial_bytes = spark.accumulator(0)
    # Each task's fetcher reads on as many threads as the task has cores (spark.task.cpus),
    # so that local[2] is two tasks of a core each, not two of two cores on two cores.
    task_cpus = spark.getConf().get("spark.task.cpus", "1")
    given_jobs = "--jobs" in reading or "-j" in reading

    def executor_options():
        options = list(reading) + ([] if given_jobs else ["--jobs", task_cpus])
        for position, word in enumerate(options[:-1]):
            if word in shipped:
                options[position + 1] = SparkFiles.get(shipped[word])
        return options

    def analyse_split(index, lines):
        """The partial of a split's lines, piped to fetcher."""
        partial = run_fetcher(
            find_fetcher(fetcher_path), ["analyze", "-", "--partial-out", "-"] + executor_options(), lines)
        partial_bytes.add(len(partial))
        yield index, partial

    # In local mode the executors run beside the driver: their partials are files of a folder
    # here, named by their paths, rather than bytes through Spark (two copies through the JVM
    # cost more than reading the log).
    shared = scratch_folder(spark) if spark.master.startswith("local") else None
    if shared:
        atexit.register(shutil.rmtree, shared, True)
        say(f"analyze.py: the partials are files in {shared}, removed at the end")

    def analyse_ranges(tasks):
        """The partial of each (index, path, start, end), read by fetcher itself."""
        for index, path, start, end in tasks:
            out = os.path.join(shared, f"{index}.partial") if shared else "-"
            partial = run_fetcher(
                find_fetcher(fetcher_path),
                ["analyze", path, "--byte-range", f"{start}-{end}", "--partial-out", out] + executor_options())
            partial_bytes.add(os.path.getsize(out) if shared else len(partial))
            yield index, out if shared else partial

    def merge_group(group):
        key, indexed = group
        ordered = [partial for _, partial in sorted(indexed, key=lambda item: item[0])]
        if len(ordered) == 1:
            return key, ordered[0]
        into = os.path.join(shared, f"merged-{uuid.uuid4().hex}.partial") if shared else None
        return key, merge_partials(find_fetcher(fetcher_path), ordered, None, into)

    log_format = (option_value(reading, "--log-format") or "").lower()
    # The splits in input order, numbered: byte ranges of the files fetcher reads itself (about
    # `splits` of them over all such files), Spark's splits of lines for the other inputs. A
    # W3C log's #Fields header rules the lines after it: read as lines, it is one split.
    wanted = splits or spark.defaultParallelism
    direct_bytes = sum(size for _, size, _, _ in direct.values())
    target = max(1, -(-direct_bytes // wanted))
    tasks, parts, count = [], [], 0
    for name in inputs:
        if name in direct:
            path, size, head, how = direct[name]
            ranges = byte_ranges(size, head, target)
            tasks += [(count + number, path, start, end) for number, (start, end) in enumerate(ranges)]
            say(f"analyze.py: {name}: {len(ranges)} byte ranges, read by fetcher on the executors{how}")
            count += len(ranges)
            continue
        lines = spark.textFile(name, minPartitions=splits, use_unicode=False)
        first = lines.take(1)
        if (first and first[0].startswith(b"#")) or log_format in ("w3c", "iis", "cloudfront"):
            lines = lines.coalesce(1)
        offset = count
        parts.append(lines.mapPartitionsWithIndex(lambda index, it, offset=offset: analyse_split(offset + index, it)))
        say(f"analyze.py: {name}: {lines.getNumPartitions()} splits of lines, read by Spark")
        count += lines.getNumPartitions()
    if tasks:
        parts.append(spark.parallelize(tasks, len(tasks)).mapPartitions(analyse_ranges))
    partials = spark.union(parts) if len(parts) > 1 else parts[0]
    splits_count = count
    rounds = 0
    # Neighbours merge in order, in parallel, until at most `fan_in` are left.
    fan_in = 4
    while count > fan_in:
        rounds += 1
        partials = partials.map(lambda item: (item[0] // fan_in, (item[0], item[1]))).groupByKey().map(
            lambda group: merge_group((group[0], list(group[1]))))
        count = (count + fan_in - 1) // fan_in
    started = time.monotonic()
    last = [partial for _, partial in sorted(partials.collect(), key=lambda item: item[0])]
    collected = time.monotonic()
    last_bytes = sum(os.path.getsize(item) if isinstance(item, str) else len(item) for item in last)
    printed = merge_partials(driver_fetcher, last, output)
    say(
        f"analyze.py: {splits_count} splits ({partial_bytes.value} bytes of partial results) "
        f"read and merged in {rounds} parallel rounds in {collected - started:.2f} s; "
        f"a last merge of {len(last)} ({last_bytes} bytes) in "
        f"{time.monotonic() - collected:.2f} s")
    sys.stdout.buffer.write(printed)
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except JobError as error:
        say(f"analyze.py: {error}")
        sys.exit(1)
    except Exception as error:  # noqa: BLE001 - a failed job: its reason, in one line
        text = str(error).strip()
        found = re.findall(r"JobError: (.+)", text)
        reason = found[-1] if found else (text.splitlines() or [repr(error)])[0]
        say(f"analyze.py: the job failed: {reason}")
        sys.exit(1)
