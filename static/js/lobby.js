// Keeps a table list live: the lobby socket says a table changed, we fetch the list fragment again (on a game's
// page, only when the table is of that game; the home page lists every game's open tables) without taking a click
// away (live_list.js).
(function () {
  const list = document.getElementById("table-list");
  if (!list) return;
  const live = window.TapeteLiveList(list);
  const refresh = () => live.refresh(list.dataset.url);
  window.TapeteLobby.subscribe((frame) => {
    if (frame.t !== "lobby" || (list.dataset.game && frame.d.game !== list.dataset.game)) return;
    refresh();
  }, refresh);
})();
