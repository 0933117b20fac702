// A live list: a part of a page fetched again when its socket says it changed (the lobby's tables, "Your move",
// the friends' list, a tournament's standings and tables). window.TapeteLiveList(box) returns { refresh(url, done) },
// which fetches the fragment at url, puts it in place of box's content and then calls done().
//
// Busy pages refresh their lists often, so a refresh must not take a click away: a link replaced between the press
// and the release gets no click (they land on different elements), and the click was lost. So a fragment that reads
// as the one shown changes nothing, one that differs waits while a pointer is pressed on the list, the link that
// had the keyboard's focus keeps it, and an older answer that arrives after a newer one is dropped.
(function () {
  function linksTo(box, href) {
    return Array.from(box.querySelectorAll(`a[href="${CSS.escape(href)}"]`));
  }

  window.TapeteLiveList = function (box) {
    let pressed = false;
    let held = null; // [html, done] fetched during a press
    let asked = 0;

    function put(html, done) {
      if (pressed) {
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

    function release() {
      if (!pressed) return;
      pressed = false;
      // The release's click is dispatched in the same task as the release: put the held list in after it.
      setTimeout(() => {
        if (held === null || pressed) return;
        const [html, done] = held;
        held = null;
        put(html, done);
      });
    }

    box.addEventListener("pointerdown", () => { pressed = true; });
    window.addEventListener("pointerup", release);
    window.addEventListener("pointercancel", release);
    window.addEventListener("blur", release);

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
