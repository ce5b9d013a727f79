// Arbiter pages: every script error and every blocked load is written into #errors, so a person sees it
// and a headless browser's DOM dump carries it.
(function () {
  'use strict';
  var seen = [];
  function note(text) {
    seen.push(String(text));
    var box = document.getElementById('errors');
    if (box) {
      box.hidden = false;
      box.textContent = seen.join('\n');
    }
  }
  window.arbiterErrors = seen;
  window.addEventListener('error', function (e) {
    note('error: ' + (e.message || e.type) + (e.lineno ? ' (line ' + e.lineno + ')' : ''));
  });
  window.addEventListener('unhandledrejection', function (e) {
    note('unhandled rejection: ' + e.reason);
  });
  document.addEventListener('securitypolicyviolation', function (e) {
    note('blocked by the page policy: ' + e.violatedDirective + ' ' + e.blockedURI);
  });
})();
