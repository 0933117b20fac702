"""``realtime.dispatch`` replaces Channels' ``AsyncConsumer.dispatch`` to skip its database-thread hop (a measured
win: see the module). These tests pin what that replacement assumes of Channels, so an upgrade that changes the
stock method fails here instead of silently diverging: the stock method still makes the hop, still does nothing
else, and the replacement does the rest exactly as it does."""

import inspect
import textwrap

import pytest
from channels import consumer as channels_consumer
from channels.consumer import AsyncConsumer

from realtime.dispatch import DispatchWithoutDatabaseHop

# Channels 4.2 / 4.3's AsyncConsumer.dispatch, which DispatchWithoutDatabaseHop copies less the hop.
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


class Ours(DispatchWithoutDatabaseHop, Recorder, AsyncConsumer):
    pass


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
