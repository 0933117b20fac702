// The plain table client: renders the view the server sends for this seat and sends the actions it offers.
// Protocol: docs/protocol.md. Game-specific pages (games/<g>/static) build on the same frames.
(function () {
  const root = document.getElementById("table");
  if (!root) return;
  const strings = JSON.parse(document.getElementById("table-strings").textContent);
  const $ = (id) => document.getElementById(id);
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  let socket = null;
  let version = null;
  let players = [];
  let retry = 500;

  function describe(action) {
    const parts = Object.entries(action).map(([key, value]) =>
      key === "type" ? value : `${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`);
    return parts.join(" · ");
  }

  function send(kind, data) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ t: kind, v: version, d: data }));
  }

  function renderPlayers(toAct) {
    const list = $("players");
    list.replaceChildren(...players.map((player) => {
      const item = document.createElement("li");
      item.className = `player ${player.online ? "online" : "offline"}${toAct.includes(player.seat) ? " to-act" : ""}`;
      const presence = document.createElement("span");
      presence.className = "presence";
      presence.setAttribute("aria-label", player.online ? strings.online : strings.offline);
      item.append(presence, `${player.username}`);
      if (toAct.includes(player.seat)) item.append(` · ${strings.toAct}`);
      return item;
    }));
  }

  function renderView(data) {
    const view = data.view || {};
    $("view").textContent = JSON.stringify(view, null, 2);
    $("seed-hash").textContent = data.seed_hash;
    if (data.seed) { $("seed").textContent = data.seed; $("seed-line").hidden = false; }
    const toAct = view.to_act || [];
    renderPlayers(toAct);
    const actions = $("actions");
    actions.replaceChildren(...(data.legal || []).map((action) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = describe(action);
      button.addEventListener("click", () => { $("error").textContent = ""; send("act", action); });
      return button;
    }));
    if (data.status === "finished" && data.result) {
      const names = data.result.ranking.map((group, rank) =>
        `${rank + 1}. ${group.map((seat) => (players[seat] || {}).username).join(", ")}`);
      $("status").textContent = `${strings.finished} ${names.join(" · ")}`;
    } else {
      $("status").textContent = data.seat === null ? strings.spectating : "";
    }
  }

  function appendLog(events) {
    const log = $("log");
    for (const event of events) {
      const item = document.createElement("li");
      item.textContent = describe(event);
      log.append(item);
    }
    log.scrollTop = log.scrollHeight;
  }

  function appendChat(line) {
    const item = document.createElement("li");
    const author = document.createElement("strong");
    author.textContent = `${line.user}: `;
    item.append(author, line.text);  // text nodes: chat is never interpreted as HTML
    $("chat").append(item);
    $("chat").scrollTop = $("chat").scrollHeight;
  }

  function onFrame(frame) {
    if (frame.t === "view") {
      if (frame.d.snapshot) {
        players = frame.d.players || [];
        $("log").replaceChildren();
        $("chat").replaceChildren();
        (frame.d.chat || []).forEach(appendChat);
      } else if (version !== null && frame.v !== version + 1) {
        send("sync", {});  // a gap: ask for a fresh snapshot
        return;
      }
      version = frame.v;
      appendLog(frame.d.events || []);
      renderView(frame.d);
    } else if (frame.t === "presence") {
      players = frame.d.players;
      renderPlayers([]);
    } else if (frame.t === "chat") {
      appendChat(frame.d);
    } else if (frame.t === "error") {
      $("error").textContent = frame.d.message;
      if (frame.d.code === "stale") send("sync", {});
    } else if (frame.t === "lobby") {
      send("sync", {});
    }
  }

  function connect() {
    socket = new WebSocket(scheme + location.host + root.dataset.ws);
    socket.addEventListener("open", () => { retry = 500; $("error").textContent = ""; });
    socket.addEventListener("message", (message) => onFrame(JSON.parse(message.data)));
    socket.addEventListener("close", () => {
      $("error").textContent = strings.reconnecting;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    });
  }

  const chatForm = $("chat-form");
  if (chatForm) {
    chatForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("chat-text");
      if (input.value.trim()) send("chat", { text: input.value });
      input.value = "";
    });
  }
  connect();
})();
