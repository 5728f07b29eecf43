/* Every page's times in words and in the reader's own time. A time is published as
   <time datetime="ISO" title="ISO">28 Nov 2026, 16:46 UTC</time> (arcade/web/render.py, when):
   readable as it is without this script. Here its text becomes how long ago (or how soon) it is,
   "3 minutes ago", "in 2 days", and past a week the date and time in the browser's own time zone;
   its title the full local time and the exact ISO time. Redone every 30 seconds, so that a page
   left open stays true. Nothing is fetched. */
(function () {
  "use strict";
  var words = window.Intl && Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat("en", {numeric: "auto"}) : null;
  var UNITS = [["second", 1], ["minute", 60], ["hour", 3600], ["day", 86400]];
  var WEEK = 7 * 86400;

  function inWords(seconds) {
    // seconds: from now to the time (negative: past)
    var size = Math.abs(seconds);
    if (size < 45) { return "just now"; }
    var unit = size < 45 * 60 ? UNITS[1] : size < 22 * 3600 ? UNITS[2] : UNITS[3];
    var count = Math.round(size / unit[1]) * (seconds < 0 ? -1 : 1);
    if (words) { return words.format(count, unit[0]); }
    var n = Math.abs(count), name = n + " " + unit[0] + (n === 1 ? "" : "s");
    return count < 0 ? name + " ago" : "in " + name;
  }

  function local(date, full) {
    var options = {year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false};
    if (full) { options.weekday = "short"; options.second = "2-digit"; options.timeZoneName = "short"; }
    try {
      return date.toLocaleString(undefined, options);
    } catch (error) {
      return date.toString();
    }
  }

  function update() {
    var now = Date.now();
    var times = document.querySelectorAll("time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var node = times[i], exact = node.getAttribute("datetime"), date = new Date(exact);
      if (isNaN(date.getTime())) { continue; }
      var seconds = (date.getTime() - now) / 1000;
      node.textContent = Math.abs(seconds) < WEEK ? inWords(seconds) : local(date, false);
      node.title = local(date, true) + " (your time) · " + exact;
    }
  }

  update();
  window.setInterval(update, 30000);
}());
