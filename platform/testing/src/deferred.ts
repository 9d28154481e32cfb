/**
 * A promise and the function that settles it: for a test that holds a step (a job, a read, a request) until it lets it
 * go. Node 20 has no `Promise.withResolvers`.
 */
export interface Deferred<T> {
  promise: Promise<T>;
  release: (value: T) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let release: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}
