import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from '@playwright/test';

/**
 * Records a page as Chromium paints it (DevTools' screencast: a JPEG each time the page changes, with its time), then
 * encodes the frames, each held until the next, into a WebM (VP9) with ffmpeg. Chromium sends a frame only when
 * something changed, so a still page costs nothing and the video keeps real time.
 */
export class Screencast {
  private readonly frames: { jpeg: Buffer; at: number }[] = [];
  private cdp: CDPSession | null = null;
  private startedAt = 0;

  constructor(private readonly page: Page) {}

  async start(size: { width: number; height: number }): Promise<void> {
    this.cdp = await this.page.context().newCDPSession(this.page);
    this.cdp.on('Page.screencastFrame', (frame: { data: string; sessionId: number; metadata: { timestamp?: number } }) => {
      const at = frame.metadata.timestamp ?? Date.now() / 1000;
      if (this.frames.length === 0) this.startedAt = at;
      this.frames.push({ jpeg: Buffer.from(frame.data, 'base64'), at });
      void this.cdp?.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
    });
    await this.cdp.send('Page.startScreencast', { format: 'jpeg', quality: 90, maxWidth: size.width, maxHeight: size.height });
  }

  /** Seconds since the first frame (0 before it). */
  now(): number {
    return this.frames.length === 0 ? 0 : Date.now() / 1000 - this.startedAt;
  }

  /** Stops recording and writes the video (the last frame held for `holdSeconds`); answers its length in seconds. */
  async save(file: string, holdSeconds = 2): Promise<number> {
    await this.cdp?.send('Page.stopScreencast');
    await this.cdp?.detach();
    if (this.frames.length === 0) throw new Error('the screencast recorded no frame');
    const dir = mkdtempSync(join(tmpdir(), 'screencast-'));
    try {
      const list: string[] = [];
      this.frames.forEach((f, i) => {
        const name = `f${String(i).padStart(5, '0')}.jpg`;
        writeFileSync(join(dir, name), f.jpeg);
        const next = this.frames[i + 1];
        const seconds = next ? Math.max(0.001, next.at - f.at) : holdSeconds;
        list.push(`file '${name}'`, `duration ${seconds.toFixed(3)}`);
      });
      // The concat demuxer takes the last file's duration only when the file is named once more.
      list.push(`file 'f${String(this.frames.length - 1).padStart(5, '0')}.jpg'`);
      writeFileSync(join(dir, 'frames.txt'), `${list.join('\n')}\n`);
      execFileSync(
        'ffmpeg',
        [
          ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', join(dir, 'frames.txt')],
          ...['-vf', 'fps=12,scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p', '-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '42'],
          ...['-deadline', 'good', '-cpu-used', '4', '-row-mt', '1', '-an', file],
        ],
        { stdio: 'inherit' },
      );
      const last = this.frames[this.frames.length - 1]?.at ?? this.startedAt;
      return last - this.startedAt + holdSeconds;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
