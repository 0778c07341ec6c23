import { describe, expect, it } from '@jest/globals';
import { eventStreams, sseMessage } from './event-stream.js';

const settings = { perTenant: 2, pollMs: 1_000, heartbeatMs: 15_000 };

describe('the event streams of one gateway process', () => {
  it('admits a tenant up to its cap, each tenant apart, and frees a slot on release', () => {
    const streams = eventStreams(settings);
    expect([streams.open('a'), streams.open('a'), streams.open('a')]).toEqual([true, true, false]);
    expect(streams.open('b')).toBe(true);
    streams.release('a');
    expect([streams.open('a'), streams.open('a')]).toEqual([true, false]);
  });

  it('ends every open stream when the process drains, each once', () => {
    const streams = eventStreams(settings);
    const ended: string[] = [];
    const forget = streams.onEndAll(() => ended.push('one'));
    streams.onEndAll(() => ended.push('two'));
    forget();
    streams.endAll();
    expect(ended).toEqual(['two']);
  });

  it('writes an event as one message whose id is the cursor after it', () => {
    const json = JSON.stringify({ id: 'e1', data: { text: 'line\nbreak' } });
    expect(sseMessage('YzE6YWJj', json)).toBe(`id: YzE6YWJj\ndata: ${json}\n\n`);
    expect(sseMessage('YzE6YWJj', json).split('\n')).toHaveLength(4);
  });
});
