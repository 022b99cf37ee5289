"""``xlshuffle sql``: the ticket draw as SQL, run on the engines themselves.

The expected winners come from ``xlshuffle sample --method ticket`` (the list engine, in
memory) over the same table saved as CSV, and for the plain draw from the reference code
of docs/draw-protocol.md, never from the SQL generator. DuckDB runs every query; BigQuery's
text (no engine here) and PostgreSQL's are also run on DuckDB after a translation of the
few function names that differ (written here, by hand), to show the logic is the same;
PostgreSQL's runs on a real server when one can be started, Spark SQL's on a local
PySpark session (slow tests, once per session; XLSHUFFLE_REQUIRE=spark makes them fail
rather than skip when Java or pyspark is missing).
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import tempfile
import unicodedata
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import duckdb
import pytest

from protocol_references import reference_namespace
from raffle_books import read_csv, run, save_csv
from ticket_tables import DRAWS, HEAD, ROWS
from xlshuffle.sql import TicketSQL, population_query, ticket_query
from xlshuffle.sql.query import TICKET_COLUMN, WHITESPACE
from xlshuffle.tabledraw.raffles import TICKET_LABEL

from support import require

REF = reference_namespace()

Row = tuple[object, ...]


def canonical(text: str) -> str:
    """Section 10's canonical ID of a text, written here from the protocol's words."""
    return unicodedata.normalize("NFC", text).strip()


def cli_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: object) -> list[Row]:
    """The command line's draw over ROWS saved as CSV: (ID, stratum?, role?, rank?,
    ticket) per drawn row, the ID canonical, in output order."""
    src, out = save_csv(tmp_path / "entrants.csv", ROWS, head=HEAD), tmp_path / "won.csv"
    code, _, err = run(capsys, "sample", src, "--method", "ticket", "--id", "ID", *args, "-o", out)
    assert code == 0, err
    table = read_csv(out)
    head, rows = table[0], table[1:]
    keep = [head.index(c) for c in ("Region", "Role", "Rank", TICKET_LABEL) if c in head]
    keep = [i for i in keep if head[i] != "Region" or "--strata" in args]
    return [(canonical(r[0]), *(r[i] for i in keep)) for r in rows]


def by_stratum(rows: list[Row]) -> dict[object, list[Row]]:
    """Rows grouped by their second field (the stratum), each group in its order."""
    out: dict[object, list[Row]] = {}
    for row in rows:
        out.setdefault(row[1], []).append(row)
    return out


def texts(rows: list[Any]) -> list[Row]:
    return [tuple(str(v) for v in row) for row in rows]


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    """DuckDB holding ROWS as the table ``entrants`` (every column text, as a CSV list
    is read) and ``numbered`` (integer IDs)."""
    path = save_csv(tmp_path_factory.mktemp("sql") / "entrants.csv", ROWS, head=HEAD)
    db = duckdb.connect()
    db.execute("SET enable_progress_bar = false")
    db.execute(
        f"CREATE TABLE entrants AS SELECT * FROM read_csv('{path}', header = true, "
        "all_varchar = true, delim = ',', quote = '\"', escape = '\"')"
    )
    db.execute("CREATE TABLE numbered AS SELECT i AS ID, 'x' AS Name FROM range(1, 31) t(i)")
    yield db
    db.close()


def query(name: str, dialect: str, table: str = "entrants", seed: str = "2026") -> str:
    return ticket_query(TicketSQL(table, "ID", seed, **DRAWS[name][1]), dialect)


def expected(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[Row]:
    return cli_draw(tmp_path, capsys, *DRAWS[name][0], "--seed", "2026")


def same_draw(got: list[Row], want: list[Row], strata: bool) -> None:
    """The SQL's rows are the command line's; with strata, stratum by stratum (the
    command line gives strata in order of first appearance, the SQL by label)."""
    if strata:
        assert by_stratum(got) == by_stratum(want)
        assert [r[1] for r in got] == sorted(r[1] for r in got)  # the documented order
    else:
        assert got == want


# --------------------------------------------------------------------------- DuckDB


@pytest.mark.parametrize("name", list(DRAWS))
def test_duckdb_draws_what_the_command_line_draws(
    name: str, con: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    got = texts(con.execute(query(name, "duckdb")).fetchall())
    same_draw(got, expected(name, tmp_path, capsys), "strata" in DRAWS[name][1])


def test_the_plain_draw_is_the_reference_codes(con: Any) -> None:
    ids = [str(r[0]) for r in ROWS]
    want = [canonical(ids[i]) for i in REF["ticket_draw"]("2026", ids, k=5)]
    got = [r[0] for r in con.execute(query("k", "duckdb")).fetchall()]
    assert got == want
    assert "Zoë" in [canonical(i) for i in ids] and "B-1" in [canonical(i) for i in ids]


def test_integer_ids_are_their_text(
    con: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = save_csv(tmp_path / "n.csv", [[i, "x"] for i in range(1, 31)], head=["ID", "Name"])
    code, _, err = run(
        capsys, "sample", src, "-k", 7, "--method", "ticket", "--id", "ID", "--seed", "s",
        "-o", tmp_path / "w.csv",
    )  # fmt: skip
    assert code == 0, err
    want = [(r[0], r[-1]) for r in read_csv(tmp_path / "w.csv")[1:]]
    sql = ticket_query(TicketSQL("numbered", "ID", "s", k=7), "duckdb")
    assert texts(con.execute(sql).fetchall()) == want


def test_the_population_digest_is_the_cores(con: Any) -> None:
    from xlshuffle.draw.tickets import population_digest

    ids = [str(r[0]) for r in ROWS]
    got = con.execute(population_query(TicketSQL("entrants", "ID", "2026"), "duckdb")).fetchone()
    assert got[0] == population_digest(ids)
    weighted = TicketSQL("entrants", "ID", "2026", weights="Weight", scale=10)
    counts = [int(Fraction(str(r[3])) * 10) for r in ROWS]
    assert con.execute(population_query(weighted, "duckdb")).fetchone()[0] == (
        population_digest(ids, counts)
    )


@pytest.mark.parametrize(
    ("rows", "draw", "message"),
    [
        ([["a"], [""]], {"k": 1}, "an ID is blank"),
        ([["a"], ["b\nc"]], {"k": 1}, "line break"),
        ([["a", "1"], ["b", "2.5"]], {"k": 1, "weights": "W"}, "at scale 1"),
        ([["a", "1"], ["b", "-1"]], {"k": 1, "weights": "W"}, "negative"),
        ([["a"], ["b"]], {"k": 2, "reserves": 1}, "fewer entrants"),
        ([["a"], [" a"], ["b"]], {"k": 3}, "drawn twice"),
        ([["a", "N"], ["b", " "]], {"k": 1, "strata": "S"}, "stratum label is blank"),
    ],
)
def test_the_query_refuses_loudly(
    rows: list[list[str]], draw: dict[str, Any], message: str
) -> None:
    db = duckdb.connect()
    names = ["ID", "W" if "weights" in draw else "S"][: len(rows[0])]
    values = ", ".join("(" + ", ".join(f"'{v}'" for v in row) + ")" for row in rows)
    db.execute(f"CREATE TABLE t AS SELECT * FROM (VALUES {values}) v({', '.join(names)})")
    with pytest.raises(duckdb.Error, match=message):
        db.execute(ticket_query(TicketSQL("t", "ID", "x", **draw), "duckdb")).fetchall()


def test_the_query_says_how_to_recompute_its_prefix() -> None:
    import hashlib

    sql = query("k", "bigquery", seed="Zoë 2026")
    line = next(x for x in sql.splitlines() if "python3 -c" in x)
    seed_hex = re.search(r"bytes\.fromhex\('([0-9a-f]+)'\)", line)
    assert seed_hex is not None and bytes.fromhex(seed_hex[1]).decode() == "Zoë 2026"
    key = hashlib.sha256(b"xlshuffle/draw/v1\0" + bytes.fromhex(seed_hex[1])).hexdigest()
    assert f"'xlshuffle/ticket/v1/{key}/0/' || xls_id" in sql
    assert sql.startswith("-- xlshuffle sql --dialect bigquery")


def test_the_ticket_column_is_named_as_the_command_line_names_it() -> None:
    assert TICKET_COLUMN == TICKET_LABEL


def test_the_trimmed_characters_are_pythons_white_space() -> None:
    assert "".join(c for c in map(chr, range(0x110000)) if c.isspace()) == WHITESPACE


def test_the_command_prints_the_query(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "sql", "--dialect", "spark", "--table", "db.voters", "--id", "voter id",
        "-k", 3, "--strata", "county", "--seed", "2026",
    )  # fmt: skip
    assert code == 0, err
    assert out == query_text("spark", "db.voters", "voter id", k=3, strata="county")
    assert "`voter id` AS" in out and "FROM db.voters" in out
    code, out, err = run(capsys, "sql", "--dialect", "duckdb", "--table", "t", "--id", "ID")
    assert code == 2 and "--seed" in err
    code, _, err = run(
        capsys, "sql", "--dialect", "duckdb", "--table", "t", "--id", "ID", "--seed", "1"
    )
    assert code == 2 and "-k K or --rate P" in err


def query_text(dialect: str, table: str, id: str, **kw: Any) -> str:
    return ticket_query(TicketSQL(table, id, "2026", **kw), dialect)


# --------------------------------------------------------------------------- BigQuery, PostgreSQL
# Each translation is a handful of textual replacements of functions that differ only in
# name (each documented by its engine); nothing else of the query is changed.


def bigquery_to_duckdb(sql: str) -> str:
    """BigQuery's query as DuckDB SQL: TO_HEX(SHA256(x)) -> sha256(x), NORMALIZE(x, NFC)
    -> nfc_normalize(x), TRIM(x, chars) -> trim(x, chars), ERROR -> error, SAFE_CAST ->
    TRY_CAST, STRING -> VARCHAR, INT64 -> BIGINT, BIGNUMERIC -> DECIMAL(38, 18), STRPOS,
    GENERATE_ARRAY -> generate_series, backquotes -> double quotes, '\\uXXXX' escapes ->
    chr()."""
    sql = re.sub(r"TO_HEX\(SHA256\(", "sha256((", sql)
    sql = re.sub(r"NORMALIZE\((.*?), NFC\)", r"nfc_normalize(\1)", sql)
    sql = sql.replace("ERROR(", "error(").replace("SAFE_CAST(", "TRY_CAST(")
    sql = sql.replace("AS STRING)", "AS VARCHAR)").replace("AS INT64)", "AS BIGINT)")
    sql = sql.replace("BIGNUMERIC", "DECIMAL(38, 18)").replace("STRPOS(", "strpos(")
    sql = sql.replace("TRIM(", "trim(").replace("MIN(", "min(")
    sql = sql.replace(
        "UNNEST(GENERATE_ARRAY(0, xls_w - 1)) AS j", "generate_series(0, xls_w - 1) AS s(j)"
    )
    sql = re.sub(r"`([^`]*)`", r'"\1"', sql)
    sql = sql.replace("'\\n'", "chr(10)").replace("'\\r'", "chr(13)")
    return re.sub(
        r"'((?:\\u[0-9a-f]{4})+)'",
        lambda m: "(" + " || ".join(f"chr({int(h, 16)})" for h in m[1].split("\\u")[1:]) + ")",
        sql,
    )


def postgres_to_duckdb(sql: str) -> str:
    """PostgreSQL's query as DuckDB SQL: encode(sha256(convert_to(x, 'UTF8')), 'hex') ->
    sha256(x), normalize(x, NFC) -> nfc_normalize(x), btrim -> trim, COLLATE "C" (DuckDB
    compares bytes already) dropped, TEXT -> VARCHAR, NUMERIC -> DECIMAL(38, 18)."""
    sql = re.sub(r"encode\(sha256\(convert_to\((.*?), 'UTF8'\)\), 'hex'\)", r"sha256(\1)", sql)
    sql = re.sub(r"normalize\((.*?), NFC\)", r"nfc_normalize(\1)", sql)
    sql = sql.replace("btrim(", "trim(").replace(' COLLATE "C"', "")
    sql = sql.replace("AS TEXT)", "AS VARCHAR)").replace("AS NUMERIC)", "AS DECIMAL(38, 18))")
    return sql.replace(
        "generate_series(0, xls_w - 1) AS j", "generate_series(0, xls_w - 1) AS s(j)"
    )


@pytest.mark.parametrize("name", list(DRAWS))
@pytest.mark.parametrize("dialect", ["bigquery", "postgres"])
def test_bigquery_and_postgres_texts_draw_the_same_on_duckdb(
    dialect: str, name: str, con: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    translate = bigquery_to_duckdb if dialect == "bigquery" else postgres_to_duckdb
    sql = translate(query(name, dialect))
    assert "TO_HEX" not in sql and "convert_to" not in sql
    got = texts(con.execute(sql).fetchall())
    same_draw(got, expected(name, tmp_path, capsys), "strata" in DRAWS[name][1])


def test_bigquery_text_uses_only_its_documented_functions() -> None:
    sql = "\n".join(query(name, "bigquery") for name in DRAWS) + population_query(
        TicketSQL("t", "ID", "1", weights="W"), "bigquery"
    )
    body = "\n".join(line for line in sql.splitlines() if not line.startswith("--"))
    called = {f.upper() for f in re.findall(r"\b([A-Za-z_]+)\(", body)}
    # https://cloud.google.com/bigquery/docs/reference/standard-sql/functions-and-operators
    documented = {
        "TO_HEX", "SHA256", "NORMALIZE", "TRIM", "CAST", "SAFE_CAST", "ERROR", "STRPOS",
        "FLOOR", "MIN", "UNNEST", "GENERATE_ARRAY", "ROW_NUMBER", "COUNT", "STRING_AGG",
        "COALESCE", "OVER",
    }  # fmt: skip
    assert called <= documented, called - documented


# PostgreSQL on a real server: initdb and pg_ctl into a temporary folder, a Unix socket
# only; as root the server runs as the `postgres` user (it refuses to run as root).
PG_BIN = Path("/usr/lib/postgresql/15/bin")


@pytest.fixture(scope="module")
def postgres() -> Iterator[Any]:
    initdb = shutil.which("initdb") or str(PG_BIN / "initdb")
    psql = shutil.which("psql")
    root = os.geteuid() == 0
    as_user = ["runuser", "-u", "postgres", "--"] if root else []
    usable = os.path.exists(initdb) and psql is not None
    if root:
        usable = usable and subprocess.run(["id", "postgres"], capture_output=True).returncode == 0
    require("postgres", usable, "install PostgreSQL's server (Debian: postgresql)")
    # not under pytest's own temporary folder, which the postgres user cannot enter
    folder = Path(tempfile.mkdtemp(prefix="xlshuffle-pg-"))
    if root:
        shutil.chown(folder, "postgres")
    data = folder / "data"
    pg_ctl = str(Path(initdb).with_name("pg_ctl"))
    subprocess.run(
        [*as_user, initdb, "-D", str(data), "-E", "UTF8", "--locale=C.UTF-8", "-A", "trust"],
        check=True, capture_output=True,
    )  # fmt: skip
    opts = f"-k {folder} -p 55433 -c listen_addresses=''"
    start = [*as_user, pg_ctl, "-D", str(data), "-o", opts, "-l", str(folder / "log"), "-w"]
    subprocess.run([*start, "start"], check=True, capture_output=True)

    def sql(text: str) -> list[Row]:
        done = subprocess.run(
            [str(psql), "-h", str(folder), "-p", "55433", "-U", "postgres", "-X", "-A", "-t",
             "-v", "ON_ERROR_STOP=1", "-F", "\x1f", "-R", "\x1e", "-c", text],
            capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(done.stderr)
        return [tuple(r.split("\x1f")) for r in done.stdout.rstrip("\n").split("\x1e") if r]

    values = ", ".join(
        "(" + ", ".join("'" + str(v).replace("'", "''") + "'" for v in row) + ")" for row in ROWS
    )
    sql('CREATE TABLE entrants ("ID" text, "Name" text, "Region" text, "Weight" text)')
    sql(f"INSERT INTO entrants VALUES {values}")
    yield sql
    subprocess.run([*start, "stop"], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("name", list(DRAWS))
def test_postgres_draws_what_the_command_line_draws(
    name: str, postgres: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    got = postgres(query(name, "postgres"))
    same_draw(got, expected(name, tmp_path, capsys), "strata" in DRAWS[name][1])


def test_postgres_refuses_loudly(postgres: Any) -> None:
    with pytest.raises(RuntimeError, match="fewer entrants"):
        postgres(ticket_query(TicketSQL("entrants", "ID", "x", k=60), "postgres"))
    digest = postgres(population_query(TicketSQL("entrants", "ID", "2026"), "postgres"))
    from xlshuffle.draw.tickets import population_digest

    assert digest == [(population_digest([str(r[0]) for r in ROWS]),)]


# --------------------------------------------------------------------------- Spark SQL


def _spark_available() -> bool:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return False
    return shutil.which("java") is not None


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """One local Spark session (2 cores) for the whole test run: it takes seconds to start."""
    require(
        "spark",
        _spark_available(),
        "needs pyspark (the test extra) and Java 17+ (Debian: openjdk-17-jre-headless)",
    )
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("xlshuffle-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def spark_entrants(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = save_csv(tmp_path_factory.mktemp("spark") / "entrants.csv", ROWS, head=HEAD)
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    # Spark SQL has no NFC: its query takes IDs as stored, so they are stored in NFC
    # (what the query's comment asks); "Zoe\u0308" is stored as "Zoë"
    rows = [[unicodedata.normalize("NFC", r[0]), *r[1:]] for r in rows]
    frame = spark.createDataFrame(rows[1:], schema=", ".join(f"`{h}` string" for h in rows[0]))
    frame.createOrReplaceTempView("entrants")
    spark.createDataFrame(
        [(i, "x") for i in range(1, 31)], "ID int, Name string"
    ).createOrReplaceTempView("numbered")
    return spark


@pytest.mark.slow
@pytest.mark.parametrize("name", list(DRAWS))
def test_spark_draws_what_the_command_line_draws(
    name: str, spark_entrants: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    got = texts([tuple(r) for r in spark_entrants.sql(query(name, "spark")).collect()])
    same_draw(got, expected(name, tmp_path, capsys), "strata" in DRAWS[name][1])


@pytest.mark.slow
def test_spark_integer_ids_population_and_refusals(spark_entrants: Any, con: Any) -> None:
    sql = ticket_query(TicketSQL("numbered", "ID", "s", k=7), "spark")
    want = con.execute(ticket_query(TicketSQL("numbered", "ID", "s", k=7), "duckdb")).fetchall()
    assert texts([tuple(r) for r in spark_entrants.sql(sql).collect()]) == texts(want)
    from xlshuffle.draw.tickets import population_digest

    ids = [str(r[0]) for r in ROWS]
    got = spark_entrants.sql(population_query(TicketSQL("entrants", "ID", "1"), "spark")).collect()
    assert got[0][0] == population_digest(ids)
    with pytest.raises(Exception, match="fewer entrants"):
        spark_entrants.sql(ticket_query(TicketSQL("entrants", "ID", "x", k=60), "spark")).collect()
