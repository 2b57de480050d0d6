"""What a person waits for after an input: the short timeouts the page set as it answered it.

Part of the init script (disguise.py, which inserts INPUT_TIMERS where its timers are replaced and calls
`noteTimeout` for each setTimeout): a timeout of at most SHORT_MS set within AFTER_INPUT_MS of a trusted
input (the handler's own turn, or one just after) is noted with the time it is due, until it is due or
cleared. The judge's world asks whether one is still to run with an event only it knows the name of (the
page cannot see the listener, the notes or the question); settle.py waits on the answer. Timers set at
load, intervals and longer timeouts are never waited for: a ticking clock or a toast that fades after
3 s would hold every action up.
"""
from __future__ import annotations

INPUT_TIMERS = r"""
  // The timeouts of at most SHORT_MS set within AFTER_INPUT_MS of a trusted input (the handler's own
  // turn, or one just after): id -> when it is due. A delay is read only when it is a primitive (its
  // conversion runs no page code twice).
  const SHORT_MS = 1000, AFTER_INPUT_MS = 50, TimerMap = Map, TMP = Map.prototype, NativeNumber = Number;
  const short = new TimerMap(), timerSet = TMP.set, timerDelete = TMP.delete, timerEach = TMP.forEach;
  const cancelQuestion = Event.prototype.preventDefault;
  let lastInput = -1e12;
  const INPUTS = ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'keydown', 'keyup', 'input',
                  'change', 'wheel', 'touchstart', 'touchend'];
  for (let i = 0; i < INPUTS.length; i++) {
    apply(listen, G, [INPUTS[i], (e) => { if (e.isTrusted) lastInput = real(); }, {__proto__: null, capture: true, passive: true}]);
  }
  const delayOf = (d) => (typeof d === 'number' ? d : typeof d === 'string' ? NativeNumber(d) : d === undefined ? 0 : NaN);
  const noteTimeout = (id, delay) => {
    if (typeof id !== 'number' || real() - lastInput > AFTER_INPUT_MS) return;
    const ms = delayOf(delay);
    if (ms <= SHORT_MS) apply(timerSet, short, [id, real() + (ms > 0 ? ms : 0)]);
  };
  const unset = (key) => replace(G, key, {__proto__: null, apply(t, self, args) {  // traps of its own: wrap keeps its proxy in them
    if (typeof args[0] === 'number') apply(timerDelete, short, [args[0]]);
    return call(t, self, args);
  }});
  unset('clearTimeout');
  unset('clearInterval');
  apply(listen, G, [TIMERS, (e) => {  // still to run (with a little time for its task to be taken)
    const t = real();
    let pending = false;
    apply(timerEach, short, [(due, id) => { if (due + 20 <= t) apply(timerDelete, short, [id]); else pending = frozen === null; }]);
    if (pending) apply(cancelQuestion, e, []);
  }, true]);
"""

# Run in the judge's world (world.py): the page's listener for the event is the init script's.
TIMERS_PENDING = "(name) => !dispatchEvent(new Event(name, {cancelable: true}))"


def timers_event(token: str) -> str:
    """The event that asks the window whether a short timeout set as the page answered its last input
    is still to run (cancelled: yes)."""
    return "w" + token
