"""What every app's pages share, below all of them: reading numbers from requests (:mod:`web.params`), the HTTP
limits on what a script would repeat (:mod:`web.throttle`) and the Django-admin base classes
(:mod:`web.admin_base`). It imports no app of the platform."""
