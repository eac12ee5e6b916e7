/** Resolves with the next `type` event of `target`, or rejects after `ms` (a bench step must never hang). */
export function nextEvent<T extends Event = Event>(target: EventTarget, type: string, ms = 10_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      target.removeEventListener(type, listener);
      reject(new Error(`no ${type} within ${ms} ms`));
    }, ms);
    const listener = (event: Event) => {
      clearTimeout(timer);
      target.removeEventListener(type, listener);
      resolve(event as T);
    };
    target.addEventListener(type, listener);
  });
}

/** Resolves with a promise's value, or rejects after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Every element of the page, looking into open shadow roots. */
export function deepElements(root: ParentNode = document): Element[] {
  const found: Element[] = [];
  for (const element of root.querySelectorAll('*')) {
    found.push(element);
    if (element.shadowRoot) found.push(...deepElements(element.shadowRoot));
  }
  return found;
}
