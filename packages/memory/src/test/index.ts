export { createInProcessRecordStore } from './record-store.js';
