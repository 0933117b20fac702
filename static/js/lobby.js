// Keeps a game's table list live: the lobby socket says "something changed", we fetch the list fragment again.
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
  function connect() {
    const socket = new WebSocket(scheme + location.host + "/ws/lobby/");
    socket.addEventListener("open", () => { retry = 1000; refresh(); });
    socket.addEventListener("message", refresh);
    socket.addEventListener("close", () => { setTimeout(connect, retry); retry = Math.min(retry * 2, 30000); });
  }
  connect();
})();
