"""Shared by the hardening tests: bytes sent as they are, past the HTTP client's own checks."""

from __future__ import annotations

import asyncio


async def raw_request(client, payload: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``payload`` on a new connection to the test server; its status, headers (lower-case names) and body."""
    reader, writer = await asyncio.open_connection(client.host, client.port)
    writer.write(payload)
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body
