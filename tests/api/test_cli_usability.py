"""The command line as a new user meets it: help that says what to type, --version, clear config errors."""

from __future__ import annotations

import io

import pytest

from cli import progress
from cli.main import main


def test_import_help_lists_every_importer_and_says_what_source_is(capsys):
    with pytest.raises(SystemExit) as done:
        main(["import", "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert "SOURCE" in out and "a folder, file or URL" in out
    for name in ("junkwax PATH", "tcgdex PATH", "psa-sales DIR|URL", "demo", "grades", "prices-synthetic [N]"):
        assert f"  {name} " in out, name


def test_serve_options_are_explained_and_version_is_printed(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--workers", "--no-migrate"):
        line = next(line for line in out.splitlines() if line.strip().startswith(option))
        assert len(line.split(maxsplit=2)) == 3, line  # the option has a help text
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.startswith("cardwise ")


@pytest.mark.parametrize(("var", "value", "says"), [
    ("CARDWISE_PORT", "abc", "a TCP port number, 1-65535"),
    ("CARDWISE_WORKERS", "0", "1-256"),
    ("CARDWISE_LOG_FORMAT", "xml", "json or text"),
    ("CARDWISE_REQUEST_TIMEOUT_S", "soon", "a number of at least 0"),
    ("CARDWISE_AGENT_THREADS", "0", "a number of threads, 1-64"),
])
def test_a_bad_variable_is_named_without_a_traceback(monkeypatch, capsys, var, value, says):
    monkeypatch.setenv(var, value)
    assert main(["serve", "--no-migrate"]) == 2
    err = capsys.readouterr().err
    assert f"{var}='{value}'" in err and says in err and "Traceback" not in err


def test_progress_bars_are_silent_off_a_terminal_and_with_quiet(capsys):
    bar = progress.factory()("features")
    bar.advance(5)
    bar.close()
    assert capsys.readouterr().err == ""  # pytest's stderr is not a terminal
    stream = io.StringIO()
    stream.isatty = lambda: True  # type: ignore[method-assign]
    real = progress.sys.stderr
    progress.sys.stderr = stream
    try:
        loud = progress.factory()("features")
        loud.advance(3)
        loud.close()
        quiet = progress.factory(quiet=True)("features")
        quiet.advance(3)
        quiet.close()
    finally:
        progress.sys.stderr = real
    assert stream.getvalue().count("features") >= 1 and "3" in stream.getvalue()
    assert stream.getvalue().count("\n") == 1  # the quiet bar drew nothing
