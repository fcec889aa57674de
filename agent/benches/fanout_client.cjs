// Telemetry fan-out clients written by no one here: Node's `ws` package (the WebSocket
// client most Node programs use), one process holding every connection, reading as a
// browser's page would (each frame a `message` event, parsed as JSON).
//
// node fanout_client.cjs ADDR TOKEN CLIENTS SETTLE_S WINDOW_S, with `ws` on NODE_PATH.
// Prints one JSON line: {"counts": [samples each client received], "seconds": connected}.
"use strict";

const WebSocket = require("ws");

const [addr, token, clients, settle, window] = process.argv.slice(2);
const count = Number(clients);
const connected = Number(settle) + Number(window);
const counts = new Array(count).fill(0);
const sockets = [];

for (let i = 0; i < count; i++) {
  const ws = new WebSocket(`ws://${addr}/ws`, ["rooflinr.v1", `rooflinr-token.${token}`], {
    // The agent offers no compression; asking for none keeps the handshake a browser's.
    perMessageDeflate: false,
  });
  ws.on("open", () => {
    ws.send(JSON.stringify({ type: "hello", protocol: 1, client: "fanout-bench-node" }));
    ws.send(JSON.stringify({ type: "subscribe", telemetry: true }));
  });
  ws.on("message", (data) => {
    if (JSON.parse(data).type === "telemetry") counts[i] += 1;
  });
  ws.on("error", (e) => {
    console.error(`client ${i}: ${e.message}`);
    process.exit(1);
  });
  sockets.push(ws);
}

setTimeout(() => {
  for (const ws of sockets) ws.terminate();
  console.log(JSON.stringify({ counts, seconds: connected }));
  process.exit(0);
}, connected * 1000);
