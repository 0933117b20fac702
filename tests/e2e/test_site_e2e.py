"""The site in a real browser: two players sign up, open and join a table, and both see the game start."""

import pytest

from tests.e2e.conftest import open_table, screenshot

pytestmark = pytest.mark.e2e


def test_two_players_open_join_and_start_a_table(new_player):
    host, guest = new_player("ana"), new_player("bruno")
    open_table(host, guest, "perudo")
    for page in (host, guest):
        page.wait_for_selector("[data-players] li:nth-child(2)")
        assert page.locator("[data-players] li").count() == 2
    screenshot(host, "site-table-host")


def test_the_lobby_list_updates_without_reload_and_only_for_its_own_game(new_player):
    watcher, host = new_player("carla"), new_player("dario")
    fetches = []
    watcher.on("request", lambda request: fetches.append(request.url) if "/spicy/tables/" in request.url else None)
    with watcher.expect_response("**/play/spicy/tables/"):  # the list fetched once its socket is open
        watcher.goto("/play/spicy/")
    host.goto("/play/perudo/")
    host.click("form.stacked button[type=submit]")
    host.wait_for_url("**/table/*/")
    host.goto("/play/spicy/")
    host.click("form.stacked button[type=submit]")
    watcher.wait_for_selector("#table-list :text('dario')")
    # The Perudo table's notice came first on the same socket and fetched nothing on the Spicy page.
    assert len(fetches) == 2, fetches
    screenshot(watcher, "site-lobby-live")


def _open_a_table(page, game: str) -> str:
    page.goto(f"/play/{game}/")
    page.click("form.stacked button[type=submit]")
    page.wait_for_url("**/table/*/")
    return "/" + page.url.split("/", 3)[3]


def test_a_link_pressed_while_the_list_refreshes_still_takes_the_click_and_the_focus_stays(new_player):
    # A busy lobby fetches its list at every table's change. Replaced between a press and its release, the pressed
    # link took no click: the list waits for the release, and a refresh keeps the keyboard's focus where it was.
    watcher, host, other, third = new_player("hugo"), new_player("ines"), new_player("jade"), new_player("kiko")
    first = _open_a_table(host, "spicy")
    with watcher.expect_response("**/play/spicy/tables/"):  # the list fetched as its socket opens
        watcher.goto("/play/spicy/")
    button = f"#table-list a.button[href='{first}']"
    watcher.focus(button)
    with watcher.expect_response("**/play/spicy/tables/"):  # another table: a list that differs
        _open_a_table(other, "spicy")
    watcher.wait_for_selector("#table-list :text('jade')")
    assert watcher.evaluate("selector => document.activeElement.matches(selector)", button)

    watcher.hover(button)
    watcher.mouse.down()
    with watcher.expect_response("**/play/spicy/tables/"):  # a third table while the button is pressed
        _open_a_table(third, "spicy")
    watcher.wait_for_timeout(300)  # the answer read: held until the release
    assert watcher.locator("#table-list :text('kiko')").count() == 0
    watcher.mouse.up()
    watcher.wait_for_url(f"**{first}")


def test_a_tap_on_a_phone_opens_the_table_it_touched_while_the_list_refreshes(browser, live_url, new_player):
    # A tap's click comes after the finger leaves, maybe in a later task: a list put in between moves the rows (an
    # older table above leaves the waiting list as it starts), and the tap opened whatever came under the finger.
    older_host, guest, host = new_player("lena"), new_player("mino"), new_player("nora")
    older = _open_a_table(older_host, "spicy")
    touched = _open_a_table(host, "spicy")
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True, base_url=live_url
    )
    try:
        phone = context.new_page()
        phone.set_default_timeout(10_000)
        with phone.expect_response("**/play/spicy/tables/"):  # the list fetched as its socket opens
            phone.goto("/play/spicy/")
        held = []
        phone.route("**/play/spicy/tables/", lambda route: held.append(route))
        guest.goto(older)  # the older table fills and starts: it leaves the waiting list, above the touched one
        guest.click("form[action$='/join/'] button")
        older_host.wait_for_selector("form[action$='/start/'] button:not([disabled])")
        older_host.click("form[action$='/start/'] button")
        older_host.wait_for_selector("[data-table]")
        for _ in range(100):  # the phone heard the start and asked for its list again
            if len(held) >= 2:
                break
            phone.wait_for_timeout(100)
        assert len(held) >= 2, f"the phone's list was fetched {len(held)} times"
        box = phone.locator(f"#table-list a.button[href='{touched}']").bounding_box()
        point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
        touch = context.new_cdp_session(phone)
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        last = held[-1].request
        with phone.expect_response(lambda response: response.request == last):  # the new list, under the finger
            for route in held:
                route.continue_()
        phone.wait_for_timeout(100)  # read and held (a press longer than about half a second makes no tap)
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        phone.wait_for_url(f"**{touched}")
        screenshot(phone, "site-tapped-while-the-list-refreshed-phone")
    finally:
        context.close()


def test_a_list_whose_script_arrives_after_the_socket_opened_still_fetches_itself(new_player):
    # Deferred scripts run in turn; one still downloading when the lobby socket opened (the header's "Your move"
    # opened it first) must still hear the opening, or the list stays as the page served it.
    watcher = new_player("gaia")
    held, heard = [], []
    watcher.route(lambda url: "/js/lobby." in url, lambda route: held.append(route))
    # Listened to from the socket's creation: a frame that came before a wait on the socket began was missed.
    watcher.on("websocket", lambda socket: socket.on("framereceived", lambda payload: heard.append(payload)))
    watcher.goto("/play/spicy/", wait_until="commit")
    for _ in range(100):  # the socket is open once the server said how many turns await
        if heard:
            break
        watcher.wait_for_timeout(100)
    assert heard, "the lobby socket never spoke"
    assert len(held) == 1
    with watcher.expect_response("**/play/spicy/tables/"):
        held[0].continue_()


def test_the_replay_of_a_finished_match_steps_back_and_forth(new_player, django_user_model):
    from lobby import services as lobby
    from tests.conftest import play_to_the_end
    from turnengine.models import Match

    page = new_player("elena")
    users = [django_user_model.objects.get(username="elena"), django_user_model.objects.create_user("fabio")]
    match = lobby.table_create(user=users[0], game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_join(user=users[1], match_id=match.pk)
    lobby.table_start(user=users[0], match_id=match.pk)
    play_to_the_end(Match.objects.get(pk=match.pk), users)
    total = Match.objects.get(pk=match.pk).version

    page.goto(f"/table/{match.pk}/replay/")
    label = page.locator("[data-step-label]")
    label.filter(has_text=f"{total} of {total}").wait_for()
    # The replay opens on the board; its result is one button away.
    assert page.locator("[data-result]").is_hidden()
    page.click("[data-show-result]")
    page.wait_for_selector("[data-result]:not([hidden])")
    page.click("[data-first]")
    label.filter(has_text=f"1 of {total}").wait_for()
    page.click("[data-next]")
    label.filter(has_text=f"2 of {total}").wait_for()
    page.keyboard.press("ArrowRight")
    label.filter(has_text=f"3 of {total}").wait_for()
    page.select_option("[data-replay-seat]", "1")  # after the end, every seat's dice may be seen
    label.filter(has_text=f"3 of {total}").wait_for()
    assert page.locator("[data-log] li").count() > 0
    screenshot(page, "site-replay")


def test_a_seat_taken_while_the_waiting_page_loaded_still_shows(new_player, django_user_model):
    # The guest sits down after the creator's page was rendered and before its socket joined the table's group: no
    # notice reaches that page, which must read itself again once its socket is open.
    from lobby import services as lobby

    host, _guest = new_player("hana"), new_player("ivo")
    host.goto("/play/perudo/")
    host.locator("[name=num_players]").select_option("2")
    host.click("form.stacked button[type=submit]")
    host.wait_for_url("**/table/*/")
    match_id = int(host.url.rstrip("/").rsplit("/", 1)[1])

    joined = []

    def joined_before_the_socket(socket):  # the first socket only: the page reloads once it has seen the seat
        if not joined:
            joined.append(lobby.table_join(user=django_user_model.objects.get(username="ivo"), match_id=match_id))
        socket.connect_to_server()

    host.route_web_socket(f"**/ws/match/{match_id}/", joined_before_the_socket)
    host.reload()
    host.wait_for_selector("form[action$='/start/'] button:not([disabled])")
    assert "ivo" in host.inner_text("ol.players")
