"""End-to-end tests of `statecraft lsp` with pytest-lsp (pygls's language client): the real
binary, started as an editor starts it, driven through the protocol by a client we did not
write. Run by LanguageServerTests/PytestLSPTests.swift, which passes the binary's path in
STATECRAFT_BINARY."""

import asyncio
import os
import pathlib
import subprocess
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

BINARY = os.environ["STATECRAFT_BINARY"]
ROOT = pathlib.Path(__file__).resolve().parents[3]
PEEK = (ROOT / "Specs" / "PeekRating.machine").read_text(encoding="utf-8")

OVERLAP = """machine M {
    event tap(x: Number)
    initial state a {
        on tap if x > 1 -> b
        on tap if x > 2 && x < 5 -> c
    }
    final state b
    state c {}
}
"""


def position(text: str, needle: str, shift: int = 0) -> types.Position:
    """The protocol position of `needle` in `text`, counting UTF-16 code units as the
    protocol does (Python counts code points, so an emoji is one here and two there)."""
    index = text.index(needle)
    line = text.count("\n", 0, index)
    line_start = text.rfind("\n", 0, index) + 1
    character = len(text[line_start:index].encode("utf-16-le")) // 2
    return types.Position(line=line, character=character + shift)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BINARY, "lsp", "--stdio"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()
    end(lsp_client)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[BINARY, "lsp"]))
async def uninitialized(lsp_client: LanguageClient):
    yield
    end(lsp_client)


def end(client: LanguageClient):
    """Makes sure the server exits (pygls waits for it) even when a test failed before
    `shutdown_session`."""
    if client._server is not None and client._server.returncode is None:
        client.protocol.notify("exit")


async def open_spec(client: LanguageClient, tmp_path: pathlib.Path, text: str, name: str = "Spec.machine"):
    """Opens `text` as a document and waits for its first diagnostics."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="statecraft", version=1, text=text)))
    await client.wait_for_notification("textDocument/publishDiagnostics")
    return uri


async def change(client: LanguageClient, uri: str, version: int, changes):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=changes))
    await client.wait_for_notification("textDocument/publishDiagnostics")


async def settle(client: LanguageClient, uri: str, predicate, timeout: float = 60):
    """Waits until the published diagnostics of `uri` satisfy `predicate`. The server
    publishes in two stages (the quick checks at once, the reachability search's findings
    after), so a test waits for what it expects rather than for one message."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not (uri in client.diagnostics and predicate(list(client.diagnostics[uri]))):
        remaining = deadline - asyncio.get_running_loop().time()
        assert remaining > 0, f"diagnostics never settled: {client.diagnostics.get(uri)}"
        await asyncio.wait_for(client.wait_for_notification("textDocument/publishDiagnostics"), remaining)
    return list(client.diagnostics[uri])


def codes(diagnostics):
    return [d.code for d in diagnostics]


def findings(diagnostics):
    """What the Problems panel lists: everything but the hints (a proven property is a hint
    on its name, not a problem)."""
    return [d for d in diagnostics if d.severity != types.DiagnosticSeverity.Hint]


@pytest.mark.asyncio
async def test_diagnostics_appear_with_witnesses_and_clear(client: LanguageClient, tmp_path):
    uri = await open_spec(client, tmp_path, OVERLAP)
    diagnostics = await settle(client, uri, lambda ds: "overlapping-guards" in codes(ds))
    expected = subprocess.run([BINARY, "check", "--format", "json", str(tmp_path / "Spec.machine")],
                              capture_output=True, text=True)
    for code in ["dead-transition", "overlapping-guards", "unreachable-state", "dead-end-state"]:
        assert code in codes(diagnostics)
        assert f'"id": "{code}"' in expected.stdout
    overlap = next(d for d in diagnostics if d.code == "overlapping-guards")
    assert overlap.severity == types.DiagnosticSeverity.Warning
    assert overlap.range.start == types.Position(line=4, character=8)
    witnesses = [r.message for r in overlap.related_information or []]
    assert any(m.startswith("both guards hold for tap(x: ") for m in witnesses), witnesses
    # Fix it with an incremental edit: the second guard no longer overlaps, c is final.
    start = position(OVERLAP, "x > 2 && x < 5")
    end = position(OVERLAP, "x > 2 && x < 5", shift=len("x > 2 && x < 5"))
    await change(client, uri, 2, [types.TextDocumentContentChangePartial(
        range=types.Range(start=start, end=end), text="x <= 1")])
    fixed = await settle(client, uri, lambda ds: "overlapping-guards" not in codes(ds))
    assert "dead-transition" not in codes(fixed) and "unreachable-state" not in codes(fixed)
    await change(client, uri, 3, [types.TextDocumentContentChangeWholeDocument(
        text=OVERLAP.replace("x > 2 && x < 5", "x <= 1").replace("state c {}", "final state c"))])
    assert await settle(client, uri, lambda ds: ds == []) == []


@pytest.mark.asyncio
async def test_a_syntax_error_after_an_emoji_is_where_the_editor_shows_it(client: LanguageClient, tmp_path):
    uri = await open_spec(client, tmp_path, PEEK)
    assert findings(client.diagnostics[uri]) == []
    # Break the rating line just after the skull: `"💀") : ""` becomes `"💀") : : ""`.
    at = position(PEEK, '"💀") : ""', shift=7)
    await change(client, uri, 2, [types.TextDocumentContentChangePartial(
        range=types.Range(start=at, end=at), text=": ")])
    [error] = await settle(client, uri, lambda ds: len(ds) == 1)
    assert error.code == "expected-token"
    assert error.range.start == types.Position(line=at.line, character=at.character)
    # While the file is broken, names still resolve: go to definition on a target below it.
    target = position(PEEK, "-> idle {", shift=3)
    locations = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=target))
    assert [l.range.start for l in locations] == [position(PEEK, "state idle", shift=6)]
    await change(client, uri, 3, [types.TextDocumentContentChangePartial(
        range=types.Range(start=at, end=types.Position(line=at.line, character=at.character + 2)), text="")])
    # Mended, it has no problems again, and its three properties are proven: hints on their names.
    mended = await settle(client, uri, lambda ds: codes(ds) == ["property-proven"] * 3)
    assert all(d.severity == types.DiagnosticSeverity.Hint for d in mended)
    assert [d.range.start for d in mended] == [position(PEEK, name) for name in
                                               ["scrollsWhenIdle", "frozenWhilePeeking", "ratingIsALabel"]]


@pytest.mark.asyncio
async def test_definition_references_and_rename(client: LanguageClient, tmp_path):
    uri = await open_spec(client, tmp_path, PEEK)
    doc = types.TextDocumentIdentifier(uri=uri)
    locations = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc, position=position(PEEK, "-> pressing", shift=4)))
    assert [l.range.start for l in locations] == [position(PEEK, "state pressing", shift=6)]
    references = await client.text_document_references_async(types.ReferenceParams(
        text_document=doc, position=position(PEEK, "cellMidY: Number"),
        context=types.ReferenceContext(include_declaration=True)))
    assert len(references) == 4
    # A payload field: `x` in the commit transitions is commitUpdate's x.
    field = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc, position=position(PEEK, "x >= cellMinX")))
    assert [l.range.start for l in field] == [position(PEEK, "x: Number, y: Number)")]
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=doc, position=position(PEEK, "state idle", shift=7)))
    assert prepared.placeholder == "idle"
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=doc, position=position(PEEK, "state idle", shift=6), new_name="resting"))
    edits = edit.changes[uri]
    # The declaration, the two transitions into it, and the property that names it.
    assert len(edits) == 4 and all(e.new_text == "resting" for e in edits)
    assert position(PEEK, "in(idle)").line in [e.range.start.line for e in edits]
    lines = PEEK.split("\n")
    for e in edits:
        line = lines[e.range.start.line].encode("utf-16-le")
        assert line[2 * e.range.start.character:2 * e.range.end.character].decode("utf-16-le") == "idle"
    with pytest.raises(JsonRpcException) as refused:
        await client.text_document_rename_async(types.RenameParams(
            text_document=doc, position=position(PEEK, "state idle", shift=6), new_name="commit"))
    assert "a state named 'commit' is already declared" in str(refused.value)


@pytest.mark.asyncio
async def test_hover_shows_declarations_and_verdicts(client: LanguageClient, tmp_path):
    uri = await open_spec(client, tmp_path, OVERLAP)
    doc = types.TextDocumentIdentifier(uri=uri)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=doc, position=position(OVERLAP, "state a", shift=6)))
    assert "initial state a" in hover.contents.value
    assert "**Out** (2)" in hover.contents.value
    field = await client.text_document_hover_async(types.HoverParams(
        text_document=doc, position=position(OVERLAP, "x > 1")))
    assert "x: Number (a field of event tap)" in field.contents.value
    live = await client.text_document_hover_async(types.HoverParams(
        text_document=doc, position=position(OVERLAP, "on tap if x > 1")))
    assert "**Reachable**: tap(x: " in live.contents.value
    dead = await client.text_document_hover_async(types.HoverParams(
        text_document=doc, position=position(OVERLAP, "on tap if x > 2")))
    assert "**Unreachable** (proven)" in dead.contents.value


@pytest.mark.asyncio
async def test_completion_knows_what_may_come_next(client: LanguageClient, tmp_path):
    text = PEEK.replace("on cancel -> idle", "on cancel -> ")
    uri = await open_spec(client, tmp_path, text)
    doc = types.TextDocumentIdentifier(uri=uri)
    states = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=position(text, "on cancel -> ", shift=len("on cancel -> "))))
    assert [i.label for i in states.items] == ["idle", "pressing", "preview", "commit"]
    # Typing `on ` on a new line of commit: the events.
    at = position(text, "        on commitUpdate {")
    await change(client, uri, 2, [types.TextDocumentContentChangePartial(
        range=types.Range(start=at, end=at), text="        on \n")])
    events = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=types.Position(line=at.line, character=at.character + 11)))
    assert [i.label for i in events.items] == ["pressBegan", "previewUpdate", "commitUpdate", "cancel"]
    values = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc, position=position(text, "ended -> commit", shift=2)))
    labels = [i.label for i in values.items]
    assert "previewProgress" in labels and "progress" in labels and "cellHeight" not in labels


@pytest.mark.asyncio
async def test_formatting_is_statecraft_fmt(client: LanguageClient, tmp_path):
    messy = "machine M {\n  initial state a { on go -> a }\n      event go\n}\n"
    uri = await open_spec(client, tmp_path, messy)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        options=types.FormattingOptions(tab_size=4, insert_spaces=True)))
    fmt = subprocess.run([BINARY, "fmt", "-"], input=messy, capture_output=True, text=True)
    assert fmt.returncode == 0
    assert [e.new_text for e in edits] == [fmt.stdout]
    assert edits[0].range == types.Range(start=types.Position(line=0, character=0),
                                         end=types.Position(line=4, character=0))
    await change(client, uri, 2, [types.TextDocumentContentChangeWholeDocument(text="machine M {\n  state a { on -> }\n")])
    refused = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        options=types.FormattingOptions(tab_size=4, insert_spaces=True)))
    assert list(refused or []) == []


@pytest.mark.asyncio
async def test_document_symbols_are_the_state_tree(client: LanguageClient, tmp_path):
    uri = await open_spec(client, tmp_path, PEEK)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    by_name = {s.name: s for s in symbols}
    assert [c.name for c in by_name["pressing"].children] == ["preview", "commit"]
    assert by_name["pressing"].kind == types.SymbolKind.Class
    assert by_name["idle"].selection_range.start == position(PEEK, "state idle", shift=6)
    assert [c.name for c in by_name["commitUpdate"].children] == ["progress", "ended", "x", "y"]


@pytest.mark.asyncio
async def test_semantic_tokens(client: LanguageClient, tmp_path):
    uri = await open_spec(client, tmp_path, PEEK)
    legend = ["keyword", "type", "class", "event", "function", "variable", "property", "number", "string", "comment"]
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    decoded = {}
    line = character = 0
    data = tokens.data
    for i in range(0, len(data), 5):
        line += data[i]
        character = character + data[i + 1] if data[i] == 0 else data[i + 1]
        decoded[(line, character)] = (data[i + 2], legend[data[i + 3]])
    lines = PEEK.split("\n")
    for (l, c), (length, kind) in decoded.items():
        assert 0 <= c and c + length <= len(lines[l].encode("utf-16-le")) // 2, (l, c, length)
    use = position(PEEK, 'cellMidY ? "❤️"')
    assert decoded[(use.line, use.character)] == (8, "variable")
    def at(needle, shift=0):
        p = position(PEEK, needle, shift)
        return (p.line, p.character)
    assert decoded[at("state commit", shift=6)] == (6, "class")
    assert decoded[at("on commitUpdate if", shift=3)] == (12, "event")
    assert decoded[at('"💀") : ""')] == (4, "string")


@pytest.mark.asyncio
async def test_cancel_is_answered_and_the_server_goes_on(client: LanguageClient, tmp_path):
    uri = await open_spec(client, tmp_path, PEEK)
    params = types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                               position=position(PEEK, "state idle", shift=6))
    future = client.protocol.send_request_async("textDocument/hover", params, msg_id=9001)
    client.protocol.notify("$/cancelRequest", types.CancelParams(id=9001))
    try:
        answer = await future
        assert "state idle" in answer.contents.value  # answered before the cancel arrived
    except JsonRpcException as e:
        assert "cancelled" in str(e)
    hover = await client.text_document_hover_async(params)
    assert "initial state idle" in hover.contents.value


@pytest.mark.asyncio
async def test_requests_before_initialize_are_refused(uninitialized: LanguageClient):
    # pytest-lsp's own checks refuse to send before initialize; pygls's plain request does.
    with pytest.raises(JsonRpcException) as refused:
        await asyncio.wrap_future(uninitialized.protocol.send_request("textDocument/hover", types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri="file:///x.machine"),
            position=types.Position(line=0, character=0))))
    assert "not initialized" in str(refused.value)
    result = await uninitialized.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    assert result.server_info.name == "statecraft"
    assert result.capabilities.text_document_sync.change == types.TextDocumentSyncKind.Incremental
    assert result.capabilities.position_encoding == "utf-16"
    assert result.capabilities.rename_provider.prepare_provider
    with pytest.raises(JsonRpcException) as again:
        await uninitialized.protocol.send_request_async("initialize", types.InitializeParams(
            capabilities=types.ClientCapabilities()))
    assert "already initialized" in str(again.value)
    await uninitialized.shutdown_session()
    assert uninitialized._server.returncode == 0


@pytest.mark.asyncio
async def test_a_file_deleted_under_the_server_keeps_the_editors_text(client: LanguageClient, tmp_path):
    uri = await open_spec(client, tmp_path, PEEK)
    (tmp_path / "Spec.machine").unlink()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uri, type=types.FileChangeType.Deleted)]))
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position(PEEK, "state idle", shift=6)))
    assert "initial state idle" in hover.contents.value
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    # Closing clears its diagnostics (the search's proofs may still be on their way from
    # before the close, so wait for the clearing itself).
    assert await settle(client, uri, lambda ds: ds == []) == []
