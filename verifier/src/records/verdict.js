/**
 * A verdict thrown from deep in a check: not verified (fail), or not checkable here (cannot).
 */

export class Verdict extends Error {
  constructor(verified, message, supported = true) {
    super(message);
    this.verified = verified;
    this.supported = supported;
  }
}

export function fail(message) {
  throw new Verdict(false, message);
}

export function cannot(message) {
  throw new Verdict(false, "Cannot check this record: " + message, false);
}
