// "Your move", on every page of a logged-in player: the lobby socket pushes a "turns" frame whenever the number
// of tables awaiting their move changes (and one as it opens). We show it in the header's badge, the tab's title
// and icon, refresh the "Your move" page's list, and, when the player allowed it, show a browser notification for
// a table that starts waiting for them while it is not in view. Nothing here asks the server on a timer.
(function () {
  const link = document.querySelector("[data-turns-link]");
  if (!link || !window.TapeteLobby) return;
  const words = document.getElementById("turn-alerts").dataset;
  const badge = link.querySelector("[data-turns-count]");
  const badges = document.querySelectorAll("[data-turns-count]"); // the header's, and a table bar's on phones
  const nextLinks = document.querySelectorAll("[data-turns-next]");
  const baseTitle = document.title.replace(/^\(\d+\) /, "");
  const table = document.querySelector("[data-table]");
  const here = table ? table.dataset.matchId : null;
  const list = document.getElementById("your-move-list");
  const liveList = list ? window.TapeteLiveList(list) : null; // no click lost to a refresh (live_list.js)
  const icon = document.querySelector('link[rel="icon"][type="image/svg+xml"]');
  const iconHref = icon ? icon.href : null;
  let iconImage = null;

  // At a table, the badge takes the player on to the next table waiting for them.
  if (here) {
    link.href = words.nextUrl + "?from=" + encodeURIComponent(here);
    link.title = words.nextLabel;
  }
  document.querySelectorAll("[data-next-table]").forEach((next) => {
    if (here) next.href = words.nextUrl + "?from=" + encodeURIComponent(here);
  });

  function drawIcon(count) {
    if (!icon) return;
    if (!count) { icon.href = iconHref; return; }
    if (iconImage === null) {
      iconImage = new Image();
      iconImage.addEventListener("load", () => drawIcon(currentCount));
      iconImage.src = iconHref;
      return;
    }
    if (!iconImage.complete) return;
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const context = canvas.getContext("2d");
    context.drawImage(iconImage, 0, 0, 64, 64);
    context.fillStyle = "#c62828";
    context.beginPath();
    context.arc(44, 20, 20, 0, 2 * Math.PI);
    context.fill();
    context.fillStyle = "#fff";
    context.font = "bold 28px sans-serif";
    context.textAlign = "center";
    context.textBaseline = "middle";
    context.fillText(count > 9 ? "9+" : String(count), 44, 21);
    icon.href = canvas.toDataURL("image/png");
  }

  let currentCount = parseInt(badge.textContent, 10) || 0;
  function show(count) {
    currentCount = count;
    badges.forEach((each) => { each.textContent = String(count); });
    badge.hidden = count === 0;
    nextLinks.forEach((each) => { each.hidden = count === 0; });
    document.title = count ? "(" + count + ") " + baseTitle : baseTitle;
    link.setAttribute("aria-label", count ? words.countLabel + ": " + count : words.noneLabel);
    drawIcon(count);
  }

  function notify(frame) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    if (!frame.d.yours || frame.d.match_id === null) return;
    if (!document.hidden && String(frame.d.match_id) === here) return; // the table is in front of them
    const url = words.tableUrl.replace("0", String(frame.d.match_id));
    const notification = new Notification(words.notificationTitle, {
      body: words.notificationBody.replace("__ID__", frame.d.match_id),
      tag: "tapete-turn-" + frame.d.match_id,
      icon: iconHref || undefined,
    });
    notification.addEventListener("click", () => { window.focus(); location.href = url; notification.close(); });
  }

  function refreshList() {
    if (liveList) liveList.refresh(list.dataset.url);
  }

  window.TapeteLobby.subscribe((frame) => {
    if (frame.t !== "turns") return;
    const changed = frame.d.count !== currentCount;
    show(frame.d.count);
    if (frame.d.match_id !== null || changed) refreshList();
    notify(frame);
  });
  show(currentCount);

  // The offer to turn notifications on, on the "Your move" page: asked only after the player's click.
  const offer = document.querySelector("[data-notify-offer]");
  if (offer && "Notification" in window) {
    const state = offer.querySelector("[data-notify-state]");
    const button = offer.querySelector("[data-notify-enable]");
    const describe = () => {
      const permission = Notification.permission;
      button.hidden = permission !== "default";
      state.textContent = permission === "granted" ? words.notifyOn : permission === "denied" ? words.notifyBlocked : "";
    };
    offer.hidden = false;
    describe();
    button.addEventListener("click", () => { Notification.requestPermission().then(describe); });
  }
})();
