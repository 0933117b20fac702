// A table's waiting page reloads when anyone joins, leaves, declines its rematch or the table starts: the server tells this page through
// the match socket (and a seat taken before the socket was open, the page itself read again once it is). The snapshot the socket opens with says whether the table started while this page was loading
// (its frame came before the socket joined the table's group).
(function () {
  "use strict";
  const node = document.getElementById("waiting");
  if (!node) return;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + node.dataset.ws);
  // 4405: the table started and allows no spectators; the reloaded page says so.
  socket.addEventListener("close", (event) => { if (event.code === 4405) location.reload(); });
  // A player who sat down after this page was rendered, before its socket joined the table's group, was heard by no
  // one here: once the socket is open, the page reads itself again and reloads if its seats changed meanwhile.
  const seats = (root) => { const list = root.querySelector("ol.players"); return list ? list.textContent.replace(/\s+/g, " ") : null; };
  socket.addEventListener("open", () => {
    fetch(location.href)
      .then((response) => response.text())
      .then((html) => {
        const fresh = seats(new DOMParser().parseFromString(html, "text/html"));
        if (fresh !== null && fresh !== seats(document)) location.reload();
      })
      .catch(() => {});
  });
  socket.addEventListener("message", (message) => {
    const frame = JSON.parse(message.data);
    // "rematch": someone declined this rematch; the page says who.
    if (frame.t === "lobby" || frame.t === "rematch" || (frame.t === "view" && (!frame.d.snapshot || frame.d.status !== "open"))) {
      location.reload();
    }
  });
})();
