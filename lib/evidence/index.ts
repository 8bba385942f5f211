export {
  ACCEPTS,
  compareEvidence,
  contractEvidence,
  REJECTS,
  weighWithEvidence,
  type Evidence,
} from './compare.ts';
export { recordEvidence } from './collect.ts';
export { maskText, PERSONAL, scrub, withoutPersonal } from './scrub.ts';
export {
  addEvidence,
  evidenceOf,
  keepEvidence,
  KEEP_PER_STATUS,
  MAX_EVIDENCE_BYTES,
  mergeBodies,
  pruneStore,
  readStore,
  shapeOf,
  storedEvidence,
  storeSize,
  type EvidenceBody,
  type EvidenceEntry,
  type EvidenceFile,
  type StoreSize,
} from './store.ts';
export { DEFAULT_SOURCES, EvidenceSourceError, gatherEvidence, NAMED_SOURCES } from './sources.ts';
