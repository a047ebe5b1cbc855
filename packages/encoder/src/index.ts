export { referenceComponents, referenceSentence } from './reference.js';
