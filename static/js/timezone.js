// Tells the server the browser's time zone (accounts/timezones.py), so dates are shown in the reader's own time.
(function () {
  "use strict";
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) document.cookie = `tapete_tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
  } catch (error) { /* no Intl: the site's zone is used */ }
})();
