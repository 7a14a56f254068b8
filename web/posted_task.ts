// A new task through a MessageChannel: for the page and the workers alike. Not setTimeout(0):
// nested timeouts are clamped to >= 4 ms from the fifth on (HTML standard). Not scheduler.yield()
// where other messages must get in first: its continuation runs ahead of them.
export function postedTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}
