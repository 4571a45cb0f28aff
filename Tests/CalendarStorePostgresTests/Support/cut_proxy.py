#!/usr/bin/env python3
"""A TCP proxy between a desk and PostgreSQL that cuts one connection in the
middle of a commit: the fault a real server does not give on demand.

    python3 cut_proxy.py UPSTREAM_PORT before|after

It listens on 127.0.0.1 at a port the system chooses and prints it on the
first line of standard output. It passes every connection through, byte for
byte, until one has sent a book's commit (the statement that raises the
store's revision, `revision SET value`) and then its COMMIT:

- `before`: the COMMIT is never forwarded; both sides are closed. The server
  sees the client go and rolls the transaction back: the change was not made.
- `after`: the COMMIT is forwarded, but the server's answer is not: the
  client's side is closed at once, the server's a second later. The change
  was made, and its answer lost.

Only the first such commit is cut; every later connection passes through.
It prints `cut` on standard output when it has cut.
"""
import asyncio
import sys

UPSTREAM = int(sys.argv[1])
MODE = sys.argv[2]
state = {"cut": False}


async def pump(reader, writer, watch):
    armed = False
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            if watch and not state["cut"]:
                if b"revision SET value" in data:
                    armed = True
                if armed and (b"COMMIT\x00" in data or b"COMMIT;" in data):
                    state["cut"] = True
                    return "before" if MODE == "before" else ("after", data)
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    return None


async def handle(client_reader, client_writer):
    try:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", UPSTREAM)
    except OSError:
        client_writer.close()
        return
    up = asyncio.ensure_future(pump(client_reader, server_writer, True))
    down = asyncio.ensure_future(pump(server_reader, client_writer, False))
    done, _ = await asyncio.wait([up, down], return_when=asyncio.FIRST_COMPLETED)
    outcome = up.result() if up in done else None
    if outcome == "before":
        down.cancel()
        client_writer.close()
        server_writer.close()
        print("cut", flush=True)
        return
    if isinstance(outcome, tuple):
        down.cancel()
        client_writer.close()
        server_writer.write(outcome[1])
        await server_writer.drain()
        print("cut", flush=True)
        await asyncio.sleep(1)
        server_writer.close()
        return
    for task in (up, down):
        task.cancel()
    client_writer.close()
    server_writer.close()


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
