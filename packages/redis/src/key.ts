const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * A store key as Redis gets it. Redis keys are bytes, and ioredis writes a string as UTF-8, where every lone
 * surrogate becomes U+FFFD: `evt_\uD800` and `evt_\uDFFF` would be one key, and one event's handlers would answer
 * for both. A key with no surrogate goes as the string it is; any other as WTF-8 bytes: UTF-8 (a pair as its code
 * point), and a lone surrogate as the three bytes UTF-8's pattern gives its value, which no well-formed string
 * encodes to. So every two different strings are two different keys, and well-formed keys are the UTF-8 ones Redis
 * always held.
 */
export function redisKey(key: string): string | Buffer {
  return SURROGATE.test(key) ? wtf8(key) : key;
}

function wtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let point = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (point >= 0xd800 && point <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      point = 0x10000 + ((point - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    if (point < 0x80) bytes.push(point);
    else if (point < 0x800) bytes.push(0xc0 | (point >> 6), 0x80 | (point & 0x3f));
    else if (point < 0x10000) bytes.push(0xe0 | (point >> 12), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f));
    else {
      bytes.push(
        0xf0 | (point >> 18),
        0x80 | ((point >> 12) & 0x3f),
        0x80 | ((point >> 6) & 0x3f),
        0x80 | (point & 0x3f),
      );
    }
  }
  return Buffer.from(bytes);
}
