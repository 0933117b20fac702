// A tournament's live parts. On its page: the socket says the tournament changed, we fetch the live part again
// (standings, rounds, the player's table); when a new table of the player's appears, it opens on its own. On a
// tournament table's page ([data-tournament-follow]): when the player's next table is paired, it opens. Everywhere:
// [data-countdown] times count down to their moment.
//
// The page's socket hears every change and refreshes the standings once within a few seconds, whatever the number of
// changes meanwhile: a finished table of a large arena must not send every page to the server at the same moment.
// The change that seats a player at a new table reaches them over the lobby socket every page of theirs holds
// (lobby_socket.js: a "tournament" frame with "seated"): their page asks at once. A table's page opens no socket
// of its own for this. On (re)connecting, a page asks once, for what it may have missed.
(function () {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const SPREAD_MS = 3000;

  function listen(path, onChange) {
    let retry = 1000;
    function connect() {
      const socket = new WebSocket(scheme + location.host + path);
      let openedAt = null;
      socket.addEventListener("open", () => { openedAt = Date.now(); onChange(null); });
      socket.addEventListener("message", (message) => {
        let frame = null;
        try { frame = JSON.parse(message.data); } catch (error) { return; }
        if (frame.t === "tournament") onChange(frame);
      });
      socket.addEventListener("close", (event) => {
        if (event.code === 4404) return;
        if (openedAt !== null && Date.now() - openedAt > 5000) retry = 1000;
        if (event.code === 4012) { setTimeout(connect, Math.random() * 500); return; }
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 30000);
      });
    }
    connect();
  }

  function pad(number) { return String(number).padStart(2, "0"); }

  function tick() {
    document.querySelectorAll("[data-countdown]").forEach((element) => {
      const left = Math.round((Date.parse(element.getAttribute("datetime")) - Date.now()) / 1000);
      if (Number.isNaN(left)) return;
      if (!element.dataset.original) element.dataset.original = element.textContent;
      if (left <= 0 || left > 86400) { element.textContent = element.dataset.original; return; }
      const hours = Math.floor(left / 3600), minutes = Math.floor((left % 3600) / 60), seconds = left % 60;
      element.textContent = (hours ? hours + ":" + pad(minutes) : minutes) + ":" + pad(seconds);
      element.title = element.dataset.original;
    });
  }
  tick();
  setInterval(tick, 1000);

  const page = document.querySelector("[data-tournament]");
  if (page) {
    const live = document.getElementById("tournament-live");
    const first = live.querySelector("[data-live]");
    let known = first ? first.dataset.myTable || null : null;
    let later = null;
    const liveList = window.TapeteLiveList(live); // no click lost to a refresh (live_list.js)
    function refresh() {
      if (later !== null) { clearTimeout(later); later = null; }
      liveList.refresh(page.dataset.liveUrl, () => {
        tick();
        const fresh = live.querySelector("[data-live]");
        const mine = fresh ? fresh.dataset.myTable || null : null;
        if (mine && mine !== known) location.assign(mine);
        known = mine;
      });
    }
    listen(page.dataset.ws, (frame) => {
      if (!frame) refresh();
      else if (later === null) later = setTimeout(refresh, Math.random() * SPREAD_MS);
    });
    if (page.dataset.player !== undefined) onSeated(page.dataset.tournament, refresh, false);
  }

  // Calls ask() when the lobby socket says this player was seated at a table of tournament `id`, and when it opens
  // again after a drop (a seating may have been missed); at once too if `now` (a finished table's page). A table's
  // page runs this script before lobby_socket.js (both deferred, in the page's order): hence the wait for the page.
  function onSeated(id, ask, now) {
    let opened = false;
    if (now) ask();
    function subscribe() {
      if (!window.TapeteLobby) return;
      window.TapeteLobby.subscribe(
        (frame) => {
          if (frame.t === "tournament" && frame.d && frame.d.seated && String(frame.d.id) === id) ask();
        },
        () => { if (opened) ask(); opened = true; },
      );
    }
    if (window.TapeteLobby) subscribe();
    else document.addEventListener("DOMContentLoaded", subscribe);
  }

  const follow = document.querySelector("[data-tournament-follow]");
  if (follow) {
    onSeated(follow.dataset.tournamentFollow, () => {
      fetch(follow.dataset.nextUrl, { headers: { "X-Requested-With": "fetch" } })
        .then((response) => (response.ok ? response.json() : Promise.reject(response.status)))
        .then((next) => {
          if (next.match && String(next.match) !== follow.dataset.match) location.assign(next.url);
        })
        .catch(() => {});
    }, follow.dataset.over !== undefined);
  }
})();
