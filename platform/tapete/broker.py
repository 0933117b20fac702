"""The embedded default's Celery broker: kombu's file-system transport, with messages written atomically.

Kombu's own transport creates a message file and then writes into it. A worker listing the folder in between moves
the still-empty file away, fails to decode it and the message is gone: a bot move or a deadline lost while another
process (the web server, beat) was enqueuing. Here a message is written under a name no queue matches and then
renamed into place, which is atomic on POSIX, so a consumer sees either the whole message or nothing. File names
also carry a zero-padded timestamp, so the folder's sort order is the order the messages were sent in.
"""

import os
import uuid
from time import monotonic

from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{int(monotonic() * 1000):015d}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".{uuid.uuid4()}.partial")
        try:
            with open(partial, "wb") as message_file:
                message_file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise filesystem.ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
