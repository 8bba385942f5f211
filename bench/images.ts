import { Agent, request } from 'node:https';
import sharp from 'sharp';
import { commandLine } from '../lib/cli.ts';
import { SOURCE_FILES, sourceBytes } from '../mock/images/sources.ts';
import { createMock } from '../mock/server.ts';
import { median } from './measure.ts';

/**
 * The image service's speed against sharp itself, measured in the same run: a 1024 px JPEG made a
 * 256 px WebP, through the mock over HTTPS, and by sharp called directly on the same bytes with the
 * same settings. The ratio is the median of interleaved rounds, so a busy moment hits both sides.
 */
const USAGE = `Usage: npm run bench:images

  Transformed images per second through the bundled mock over HTTPS (a 1024 px JPEG made a 256 px
  WebP, keep-alive, loopback only) against sharp called directly on the same image with the same
  settings, in the same run (target: at least 70%). Each request names another bgcolor, which an
  image without transparency does not use: every request misses the mock's cache and is a transform.
  Exits 1 when the target is missed.

  BENCH_IMAGES     transforms per round and side (default 200)
  BENCH_ROUNDS     interleaved rounds, at least 5 (default 5)
  BENCH_PARALLEL   transforms in flight (default 4)
  BENCH_SECONDS    the most one side of one round may take (default 10)
  -h, --help       this text`;
commandLine(USAGE);

const IMAGES = Math.max(1, Number(process.env.BENCH_IMAGES ?? 200));
const ROUNDS = Math.max(5, Number(process.env.BENCH_ROUNDS ?? 5));
const PARALLEL = Math.max(1, Number(process.env.BENCH_PARALLEL ?? 4));
const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 10));
const WIDTH = 256;

/** Images per second: `count` transforms, `PARALLEL` at a time, cut short at the time bound. */
async function rate(transform: (i: number) => Promise<Buffer>, offset: number): Promise<number> {
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < IMAGES && performance.now() < deadline) {
      const i = next++;
      await transform(offset + i);
      done++;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return (done * 1000) / (performance.now() - started);
}

// libvips's own operation cache off too: both sides measure whole transforms.
sharp.cache(false);
const mock = await createMock({ seed: 1 });
const agent = new Agent({ keepAlive: true, maxSockets: PARALLEL, rejectUnauthorized: false });
try {
  const uri = encodeURIComponent(mock.state.examples().imageUri);
  const base = `${mock.imagesUrl}/images/raw/${uri}?format=auto&quality=medium&width=${WIDTH}&source=bench`;
  const viaMock = (i: number) =>
    new Promise<Buffer>((resolve, reject) => {
      const bgcolor = (i % 0x1000000).toString(16).padStart(6, '0');
      const req = request(
        `${base}&bgcolor=${bgcolor}`,
        { agent, headers: { Accept: 'image/webp' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(Buffer.concat(chunks))
              : reject(new Error(`HTTP ${res.statusCode}`)),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  // The same work as the mock's for quality=medium: resized to the width, WebP at 60, effort 2.
  const photo = await sourceBytes('photo');
  const direct = () => sharp(photo).resize(WIDTH).webp({ quality: 60, effort: 2 }).toBuffer();

  const first = await sharp(await viaMock(0)).metadata();
  if (first.format !== 'webp' || first.width !== WIDTH)
    throw new Error(`The mock served ${first.format} ${first.width} px, not WebP ${WIDTH} px`);
  // A round not counted: sockets, TLS and the JIT warm up.
  await rate(viaMock, 1);
  await rate(direct, 0);

  const ratios: number[] = [];
  const last = { mock: 0, direct: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    last.mock = await rate(viaMock, (round + 1) * IMAGES + 1);
    last.direct = await rate(direct, 0);
    ratios.push(last.mock / last.direct);
  }
  const ratio = median(ratios);
  console.log(
    `Image transforms, ${SOURCE_FILES.photo.width} px JPEG to ${WIDTH} px WebP, ` +
      `${ROUNDS} interleaved rounds of ${IMAGES}, ${PARALLEL} in flight:
  mock over HTTPS  ${last.mock.toFixed(0)} images/s (last round)
  sharp directly   ${last.direct.toFixed(0)} images/s
  ratio            ${(ratio * 100).toFixed(0)}% of sharp directly, ` +
      `median of ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(' ')} (target: at least 70%)`,
  );
  if (ratio < 0.7) {
    console.error('FAILED: the mock transforms below 70% of the rate of sharp called directly');
    process.exitCode = 1;
  }
} finally {
  agent.destroy();
  await mock.close();
}
