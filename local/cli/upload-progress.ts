import cliProgress from 'cli-progress';

export interface UploadProgress {
  update(sentBytes: number, totalBytes: number): void;
  stop(): void;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/** The upload's bytes sent: a live bar on a terminal, a plain line every few seconds otherwise. */
export function createUploadProgress(
  stream: NodeJS.WriteStream,
  now = Date.now,
  label = 'uploading',
): UploadProgress {
  const started = now();
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: ` ${label} {bar} {sent}/{size} MB | {rate} MB/s | ETA {eta_formatted}`,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    let begun = false;
    return {
      update(sent, total) {
        const payload = { sent: mb(sent), size: mb(total), rate: rate(sent, started, now()) };
        if (!begun) bar.start(total, sent, payload);
        else bar.update(sent, payload);
        begun = true;
      },
      stop() {
        if (begun) bar.stop();
        begun = false;
      },
    };
  }
  let last = 0;
  return {
    update(sent, total) {
      if (now() - last < 2_000 && sent < total) return;
      last = now();
      stream.write(`${label}: ${mb(sent)}/${mb(total)} MB, ${rate(sent, started, now())} MB/s\n`);
    },
    stop() {},
  };
}

function rate(sent: number, started: number, at: number): string {
  return (sent / 1024 / 1024 / Math.max((at - started) / 1000, 0.001)).toFixed(1);
}
