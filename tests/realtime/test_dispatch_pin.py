"""``realtime.dispatch`` replaces Channels' ``AsyncConsumer.__call__`` (its loop) and ``AsyncConsumer.dispatch`` (to
skip its database-thread hop): measured wins, see the module. These tests pin what the replacement assumes of
Channels, so an upgrade that changes the stock methods fails here instead of silently diverging: the stock methods
are still the ones copied, the stock dispatch still makes the hop and does nothing else, the replacement does the
rest exactly as it does, and its loop hands over the messages of both sources in order and ends as Channels'
does."""

import asyncio
import inspect
import textwrap

import pytest
from channels import consumer as channels_consumer
from channels.consumer import AsyncConsumer
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from django.conf import settings

from realtime.dispatch import Inbox, MessageLoop, dispatch_in_turn

# Channels 4.3's AsyncConsumer.__call__, which MessageLoop copies with its own loop (dispatch_in_turn, not
# await_many_dispatch).
STOCK_CALL = '''
async def __call__(self, scope, receive, send):
    """
    Dispatches incoming messages to type-based handlers asynchronously.
    """
    self.scope = scope

    # Initialize channel layer
    self.channel_layer = get_channel_layer(self.channel_layer_alias)
    if self.channel_layer is not None:
        self.channel_name = await self.channel_layer.new_channel()
        self.channel_receive = functools.partial(
            self.channel_layer.receive, self.channel_name
        )
    # Store send function
    if self._sync:
        self.base_send = async_to_sync(send)
    else:
        self.base_send = send
    # Pass messages in from channel layer or client to dispatch method
    try:
        if self.channel_layer is not None:
            await await_many_dispatch(
                [receive, self.channel_receive], self.dispatch
            )
        else:
            await await_many_dispatch([receive], self.dispatch)
    except StopConsumer:
        # Exit cleanly
        pass
'''

# Channels 4.2 / 4.3's AsyncConsumer.dispatch, which MessageLoop copies less the hop.
STOCK_DISPATCH = '''
async def dispatch(self, message):
    """
    Works out what to do with a message.
    """
    handler = getattr(self, get_handler_name(message), None)
    if handler:
        await aclose_old_connections()
        await handler(message)
    else:
        raise ValueError("No handler for message type %s" % message["type"])
'''


class Recorder:
    def __init__(self):
        self.handled = []

    async def frame_relay(self, message):
        self.handled.append(message)


class Stock(Recorder, AsyncConsumer):
    pass


class Ours(MessageLoop, Recorder, AsyncConsumer):
    pass


def test_channels_consumer_loop_is_the_method_we_copied():
    source = textwrap.dedent(inspect.getsource(AsyncConsumer.__call__))
    assert source.strip() == STOCK_CALL.strip(), (
        "Channels changed AsyncConsumer.__call__: check realtime/dispatch.py against it, then update this copy"
    )


def test_channels_dispatch_is_the_method_we_copied():
    source = textwrap.dedent(inspect.getsource(AsyncConsumer.dispatch))
    assert source.strip() == STOCK_DISPATCH.strip(), (
        "Channels changed AsyncConsumer.dispatch: check realtime/dispatch.py against it, then update this copy"
    )


async def test_the_stock_method_hops_to_the_database_thread_and_ours_does_not(monkeypatch):
    hops = []

    async def counted():
        hops.append(1)

    monkeypatch.setattr(channels_consumer, "aclose_old_connections", counted)
    message = {"type": "frame.relay", "text": "x"}
    stock, ours = Stock(), Ours()
    await stock.dispatch(message)
    assert hops == [1] and stock.handled == [message]
    await ours.dispatch(message)
    assert hops == [1] and ours.handled == [message]


@pytest.mark.parametrize("message", [{"type": "no.such.handler"}, {"type": "_private"}, {"text": "no type"}])
async def test_a_message_without_a_handler_fails_the_same_way(message):
    errors = []
    for consumer in (Stock(), Ours()):
        with pytest.raises(ValueError) as error:
            await consumer.dispatch(message)
        errors.append(str(error.value))
    assert errors[0] == errors[1]


class Stopping(Recorder):
    async def websocket_disconnect(self, message):
        raise StopConsumer


class OursStopping(MessageLoop, Stopping, AsyncConsumer):
    pass


@pytest.mark.parametrize("client_queue", [asyncio.Queue, Inbox], ids=["pumped", "the servers inbox"])
async def test_the_loop_hands_over_both_sources_messages_in_order_and_ends_as_channels_does(client_queue):
    """A consumer run by the loop gets its client's messages and its channel's, each once, in the order they came;
    a handler raising StopConsumer ends it cleanly. Whether its client's messages come from a queue it pumps
    (Channels' test communicator, daphne alone) or from the inbox the site's server gives it (``tapete.serve``)."""
    client = client_queue()
    consumer = OursStopping()
    run = asyncio.ensure_future(consumer({"type": "websocket"}, client.get, None))
    while not getattr(consumer, "channel_name", None):
        await asyncio.sleep(0)
    layer = get_channel_layer()
    client.put_nowait({"type": "frame.relay", "n": 1})
    await layer.send(consumer.channel_name, {"type": "frame.relay", "n": 2})
    client.put_nowait({"type": "frame.relay", "n": 3})
    while len(consumer.handled) < 3:
        await asyncio.sleep(0.01)
    await layer.send(consumer.channel_name, {"type": "frame.relay", "n": 4})
    while len(consumer.handled) < 4:
        await asyncio.sleep(0.01)
    client.put_nowait({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait_for(run, 5)
    assert sorted(message["n"] for message in consumer.handled[:3]) == [1, 2, 3]
    assert [message["n"] for message in consumer.handled if message["n"] in (1, 3)] == [1, 3]
    assert consumer.handled[3]["n"] == 4


async def test_a_failing_source_fails_the_consumer_and_the_other_source_is_cancelled():
    other = asyncio.Event()
    cancelled = []

    async def broken():
        raise ConnectionError("gone")

    async def waiting():
        try:
            await other.wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    async def dispatch(message):
        raise AssertionError("nothing to dispatch")

    with pytest.raises(ConnectionError):
        await asyncio.wait_for(dispatch_in_turn([broken, waiting], dispatch), 5)
    assert cancelled == [True]


async def test_on_the_servers_inbox_and_the_sites_layer_a_consumer_runs_no_task_but_its_own():
    """The site's server gives a websocket an inbox, and the site's channel layer (Redis, or the embedded default's
    in-memory one) delivers into it: the consumer reads both sources with no task between; its channel is given up
    when it ends."""
    layer = get_channel_layer()
    before = asyncio.all_tasks()
    client = Inbox()
    consumer = OursStopping()
    run = asyncio.ensure_future(consumer({"type": "websocket"}, client.get, None))
    while not getattr(consumer, "channel_name", None):
        await asyncio.sleep(0)
    client.put_nowait({"type": "frame.relay", "n": 1})
    await layer.send(consumer.channel_name, {"type": "frame.relay", "n": 2})
    while len(consumer.handled) < 2:
        await asyncio.sleep(0.01)
    pumps = {task for task in asyncio.all_tasks() - before - {run} if "pump" in repr(task.get_coro())}
    assert pumps == set()
    assert [message["n"] for message in consumer.handled] == [1, 2]
    client.put_nowait({"type": "websocket.disconnect", "code": 1000})
    await asyncio.wait_for(run, 5)
    delivering = layer._get_layer().channels if settings.REDIS_URL else layer.inboxes
    assert consumer.channel_name not in delivering
