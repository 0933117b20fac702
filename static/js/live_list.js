// A live list: a part of a page fetched again when its socket says it changed (the lobby's tables, "Your move",
// the friends' list, a tournament's standings and tables). window.TapeteLiveList(box) returns { refresh(url, done) },
// which fetches the fragment at url, puts it in place of box's content and then calls done().
//
// Busy pages refresh their lists often, so a refresh must not take a click away: a link replaced between the press
// and the release gets no click (they land on different elements), and the click was lost. So a fragment that reads
// as the one shown changes nothing, one that differs waits from a press on the list until the click it makes, the
// link that had the keyboard's focus keeps it, and an older answer that arrives after a newer one is dropped.
(function () {
  function linksTo(box, href) {
    return Array.from(box.querySelectorAll(`a[href="${CSS.escape(href)}"]`));
  }

  window.TapeteLiveList = function (box) {
    let holding = false; // from a press on the list until the click it makes has been dispatched
    let ending = null; // ends the hold a moment after a release that makes no click (a drag, a cancelled tap)
    let held = null; // [html, done] fetched during the hold
    let asked = 0;

    function put(html, done) {
      if (holding) {
        held = [html, done];
        return;
      }
      const fresh = document.createElement("template");
      fresh.innerHTML = html;
      if (fresh.innerHTML.trim() !== box.innerHTML.trim()) {
        // The focused link, as its address and its place among the list's links to it (a row's name, its button).
        const active = document.activeElement;
        const href = box.contains(active) && active.matches("a[href]") ? active.getAttribute("href") : null;
        const index = href === null ? -1 : linksTo(box, href).indexOf(active);
        box.replaceChildren(fresh.content);
        const again = href === null ? undefined : linksTo(box, href)[index];
        if (again) again.focus({ preventScroll: true });
      }
      if (done) done();
    }

    function endHold(after) {
      clearTimeout(ending);
      ending = setTimeout(() => {
        ending = null;
        holding = false;
        if (held === null) return;
        const [html, done] = held;
        held = null;
        put(html, done);
      }, after);
    }

    box.addEventListener("pointerdown", () => {
      clearTimeout(ending);
      ending = null;
      holding = true;
    });
    // A mouse's click follows its release in the same task; a tap's may come in a later one. The hold ends once the
    // click has been dispatched, or 400 ms after a release that made none.
    const released = () => { if (holding && ending === null) endHold(400); };
    window.addEventListener("pointerup", released);
    window.addEventListener("pointercancel", released);
    window.addEventListener("click", () => { if (holding) endHold(0); }, true);
    window.addEventListener("blur", () => { if (holding) endHold(0); });

    return {
      refresh(url, done) {
        const mine = ++asked;
        return fetch(url, { headers: { "X-Requested-With": "fetch" } })
          .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
          .then((html) => { if (mine === asked) put(html, done); })
          .catch(() => {}); // the next change, or the socket's next opening, fetches it again
      },
    };
  };
})();
