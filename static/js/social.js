// A logged-in player's social frames, on every page: the lobby socket (/ws/lobby/) carries, for them, invitations
// to a table (the header's count and list grow, and a notice says so), answers to their own invitations, friend
// requests, and their friends coming online or going (the friends page fetches its list again). The texts come
// translated in the header's data attributes (templates/social/_header.html). It listens to the page's one lobby
// socket (lobby_socket.js), which the table lists (lobby.js) and the "Your move" badge (alerts.js) share.
(function () {
  "use strict";
  const toasts = document.querySelector("[data-social-toasts]");
  if (!toasts) return;
  const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (match, key) => String(values[key] ?? ""));

  function toast(text, link) {
    const item = document.createElement("p");
    item.className = "social-toast";
    const words = document.createElement(link ? "a" : "span");
    words.textContent = text;
    if (link) words.href = link;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "link";
    close.textContent = "✕";
    close.setAttribute("aria-label", toasts.dataset.close);
    close.addEventListener("click", () => item.remove());
    item.append(words, " ", close);
    toasts.append(item);
    setTimeout(() => item.remove(), 15000);
  }

  function addInvitation(data) {
    const list = document.querySelector("[data-invitation-list]");
    const template = document.querySelector("[data-invitation-template]");
    if (!list || !template || list.querySelector(`[data-invitation-id="${data.id}"]`)) return;
    const item = template.content.firstElementChild.cloneNode(true);
    item.dataset.invitationId = data.id;
    item.querySelector("[data-invitation-text]").textContent = fill(toasts.dataset.invited, { name: data.from, table: data.table });
    // The attribute, not form.action: a node cloned from a <template> has no base address to resolve against.
    for (const form of item.querySelectorAll("form")) {
      form.setAttribute("action", form.getAttribute("action").replace(/\/0\/(accept|decline)\/$/, `/${data.id}/$1/`));
    }
    list.prepend(item);
    const count = document.querySelector("[data-invitation-count]");
    count.textContent = list.children.length;
    count.hidden = false;
    document.querySelector("[data-no-invitations]")?.setAttribute("hidden", "");
  }

  let refreshing = null;
  const friendsBox = document.getElementById("friends-list");
  const friendsList = friendsBox ? window.TapeteLiveList(friendsBox) : null; // no click lost (live_list.js)
  function refreshFriends() {
    if (!friendsList || refreshing) return;
    // One fetch for a burst of frames (a friend changing pages closes one socket and opens another).
    refreshing = setTimeout(() => {
      refreshing = null;
      friendsList.refresh(friendsBox.dataset.friendsUrl);
    }, 1000);
  }

  function onFrame(frame) {
    const d = frame.d || {};
    if (frame.t === "invitation") {
      addInvitation(d);
      toast(fill(toasts.dataset.invited, { name: d.from, table: d.table }), d.url);
    } else if (frame.t === "invitation_answered") {
      toast(fill(d.answer === "accepted" ? toasts.dataset.accepted : toasts.dataset.declined, { name: d.by }));
    } else if (frame.t === "friend_request") {
      toast(fill(toasts.dataset.friendRequest, { name: d.from }), toasts.dataset.friendsUrl);
    } else if (frame.t === "friend_accepted") {
      toast(fill(toasts.dataset.friendAccepted, { name: d.by }));
      refreshFriends();
    } else if (frame.t === "friend_presence") {
      refreshFriends();
    }
  }

  window.TapeteLobby.subscribe(onFrame);  // the page's one lobby socket (lobby_socket.js)
})();
