// Keeps a table list live: the lobby socket says a table changed, we fetch the list fragment again (on a game's
// page, only when the table is of that game; the home page lists every game's open tables).
//
// A busy lobby refreshes often, so a refresh must not take a click away: a link replaced between the press and the
// release gets no click (the press and the release then land on different elements), and the click was lost. So a
// fetched list that reads as the one shown changes nothing (the refresh as the socket opens, most of all), one that
// differs waits while a pointer is pressed on the list, and the link that had the keyboard's focus keeps it.
(function () {
  const list = document.getElementById("table-list");
  if (!list) return;
  let pressed = false;
  let held = null; // the latest list fetched during a press

  function show(html) {
    if (pressed) {
      held = html;
      return;
    }
    const fresh = document.createElement("template");
    fresh.innerHTML = html;
    if (fresh.innerHTML.trim() === list.innerHTML.trim()) return;
    const focused = focusedLink();
    list.replaceChildren(fresh.content);
    if (focused) {
      const again = linksTo(focused.href)[focused.index];
      if (again) again.focus({ preventScroll: true });
    }
  }

  function linksTo(href) {
    return Array.from(list.querySelectorAll(`a[href="${CSS.escape(href)}"]`));
  }

  // The focused link as its address and its place among the list's links to it (a row's name and its button).
  function focusedLink() {
    const active = document.activeElement;
    if (!list.contains(active) || !active.matches("a[href]")) return null;
    const href = active.getAttribute("href");
    return { href, index: linksTo(href).indexOf(active) };
  }

  function release() {
    if (!pressed) return;
    pressed = false;
    // The release's click is dispatched in the same task as the release: show the held list after it.
    setTimeout(() => {
      if (held === null || pressed) return;
      const html = held;
      held = null;
      show(html);
    });
  }

  list.addEventListener("pointerdown", () => { pressed = true; });
  window.addEventListener("pointerup", release);
  window.addEventListener("pointercancel", release);
  window.addEventListener("blur", release);

  let asked = 0;
  function refresh() {
    const mine = ++asked;
    fetch(list.dataset.url, { headers: { "X-Requested-With": "fetch" } })
      .then((response) => response.text())
      .then((html) => { if (mine === asked) show(html); }); // an older answer that came last is stale
  }
  window.TapeteLobby.subscribe((frame) => {
    if (frame.t !== "lobby" || (list.dataset.game && frame.d.game !== list.dataset.game)) return;
    refresh();
  }, refresh);
})();
