// One lobby socket per page, shared by whoever listens (the lobby's table lists, the header's "Your move"): it
// connects when the first listener subscribes, and comes back after a close, backing off. A page without a table
// list (lobby.js's #table-list) asks not to hear the tables' changes (?lists=0): a large tournament starts and ends
// tables by the dozen each second.
(function () {
  const listeners = [];
  let socket = null;
  let retry = 1000;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const lists = document.getElementById("table-list") !== null;
    socket = new WebSocket(scheme + location.host + "/ws/lobby/" + (lists ? "" : "?lists=0"));
    let openedAt = null;
    socket.addEventListener("open", () => {
      openedAt = Date.now();
      listeners.forEach((listener) => { if (listener.open) listener.open(); });
    });
    socket.addEventListener("message", (message) => {
      let frame = null;
      try { frame = JSON.parse(message.data); } catch (error) { return; }
      listeners.forEach((listener) => listener.frame(frame));
    });
    socket.addEventListener("close", (event) => {
      // The wait starts over only after a socket that lasted: one closed as soon as it opened (4500 while the
      // server cannot reach Redis) keeps backing off, or every page would knock every second.
      if (openedAt !== null && Date.now() - openedAt > 5000) retry = 1000;
      // 4012: the server is restarting; come back at once (spread over half a second).
      if (event.code === 4012) { setTimeout(connect, Math.random() * 500); return; }
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    });
  }
  window.TapeteLobby = {
    // frame(frame) for every frame; open() each time the socket (re)opens.
    subscribe(frame, open) {
      listeners.push({ frame, open });
      if (socket === null) connect();
      // A script that subscribes after the socket opened (a deferred script still downloading when it did) hears
      // the opening now, or a list that fetches itself on open would stay as the page served it.
      else if (open && socket.readyState === WebSocket.OPEN) open();
    },
  };
})();
