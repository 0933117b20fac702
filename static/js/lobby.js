// Keeps a table list live: the lobby socket says a table changed, we fetch the list fragment again (on a game's
// page, only when the table is of that game; the home page lists every game's open tables).
(function () {
  const list = document.getElementById("table-list");
  if (!list) return;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  let retry = 1000;
  function refresh() {
    fetch(list.dataset.url, { headers: { "X-Requested-With": "fetch" } })
      .then((response) => response.text())
      .then((html) => { list.innerHTML = html; });
  }
  function onFrame(frame) {
    if (frame.t !== "lobby" || (list.dataset.game && frame.d.game !== list.dataset.game)) return;
    refresh();
  }
  // A logged-in player's page already holds the lobby socket (social.js): listen to it instead of opening another.
  if (document.querySelector("[data-social-toasts]")) {
    document.addEventListener("tapete:lobby-open", refresh);
    document.addEventListener("tapete:lobby-frame", (event) => onFrame(event.detail));
    return;
  }
  function connect() {
    const socket = new WebSocket(scheme + location.host + "/ws/lobby/");
    let openedAt = null;
    socket.addEventListener("open", () => { openedAt = Date.now(); refresh(); });
    socket.addEventListener("message", (message) => {
      let frame = null;
      try { frame = JSON.parse(message.data); } catch (error) { return; }
      onFrame(frame);
    });
    socket.addEventListener("close", (event) => {
      // The wait starts over only after a socket that lasted: one closed as soon as it opened (4500 while the
      // server cannot reach Redis) keeps backing off, or every lobby page would knock every second.
      if (openedAt !== null && Date.now() - openedAt > 5000) retry = 1000;
      // 4012: the server is restarting; come back at once (spread over half a second).
      if (event.code === 4012) { setTimeout(connect, Math.random() * 500); return; }
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    });
  }
  connect();
})();
