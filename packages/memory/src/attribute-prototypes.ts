/**
 * Attributes a user states in words too varied for patterns ("I changed careers and became an
 * architect", "I've gone vegan", "I'm with Alex now"), each with statements and questions that
 * stand for it. The encoder places a new statement or question near the attribute it is about
 * (`attribute-classifier.ts`). `slot` is the slot the patterns of `fact-slots.ts` give the same
 * attribute, so a statement of either kind replaces the other and a question of either kind finds
 * both. Written from the dev attributes of `tooling/evals/data/memory/updates.jsonl` and their
 * tuning question forms; the held-out attributes and question forms are not here, so the
 * evaluation measures how far this carries.
 */
export interface AttributePrototype {
  slot: string;
  statements: readonly string[];
  questions: readonly string[];
}

export const ATTRIBUTE_PROTOTYPES: readonly AttributePrototype[] = [
  {
    slot: 'home',
    statements: ['I live in Lisbon.', 'I moved to Oslo last year.', 'Home for me is Denver.', 'I relocated to Kyoto.', "I'm based in Nairobi."],
    questions: ['Which city do I live in?', 'Where do I live?', 'Where am I based?', 'Where is my home?'],
  },
  {
    slot: 'job',
    statements: ['I work as a nurse.', "I'm a teacher by profession.", 'I changed careers and became a plumber.', "These days I'm a pilot.", 'I am an accountant.'],
    questions: ['What is my job?', 'What do I do for work?', "What's my profession?", 'What is my career?'],
  },
  {
    slot: 'diet',
    statements: ['I am vegetarian.', 'I follow a vegan diet.', "I've gone pescatarian.", 'I eat meat again.', "I don't eat fish."],
    questions: ['What is my diet?', 'What do I eat?', 'Do I eat meat?', 'What foods do I avoid?'],
  },
  {
    slot: "my:partner's name",
    statements: ['My partner is called Sam.', "I'm in a relationship with Alex.", "I'm dating Jordan these days.", "My partner's name is Priya.", "I'm with Mateo now."],
    questions: ["What's my partner's name?", 'Who is my partner?', 'Who is my girlfriend or boyfriend?'],
  },
  {
    slot: 'relationship',
    statements: ["I'm single.", 'I am married.', 'I recently got engaged.', "I'm divorced.", 'I got married last month.'],
    questions: ['Am I married?', "What's my relationship status?", 'Am I engaged?'],
  },
  {
    slot: 'language',
    statements: ["I'm learning Japanese.", "I'm studying Spanish in the evenings.", 'I take Korean lessons.', 'I switched to learning Italian.'],
    questions: ['Which language am I learning?', 'What language am I studying?', 'What language lessons do I take?'],
  },
  {
    slot: 'my:phone',
    statements: ['My phone is an iPhone 13.', 'I use a Pixel 8.', 'I have a Galaxy S23 phone.', 'I got a new phone, a Nokia.'],
    questions: ['What phone do I have?', 'What is my phone?', 'Which mobile do I own?'],
  },
  {
    slot: 'commute',
    statements: ['I commute by bike.', 'I get to work by bus.', 'I take the train to work.', 'I go to work by tram.'],
    questions: ['How do I get to work?', 'How do I commute?', 'How do I travel to my job?'],
  },
  {
    slot: 'my:coffee',
    statements: ['I take my coffee black.', 'I drink my coffee with milk.', 'I like my coffee with oat milk.', 'I have my coffee as an espresso.'],
    questions: ['How do I take my coffee?', 'How do I like my coffee?', 'What do I put in my coffee?'],
  },
  {
    slot: 'team',
    statements: ['I support Arsenal.', "I'm an Ajax fan.", 'My football team is Benfica.', 'I follow Celtic.'],
    questions: ['Which team do I support?', 'Which football club do I follow?', 'What team am I a fan of?'],
  },
  {
    slot: 'workout day',
    statements: ['I go to the gym on Mondays.', 'My gym day is Wednesday.', 'I work out every Friday.', 'I train on Saturdays.'],
    questions: ['When do I go to the gym?', "What's my gym day?", 'When do I work out?'],
  },
  {
    slot: 'work location',
    statements: ['I work from home.', 'I do my work in the office.', 'Most days I work from a coworking space.', "I work at the client's site."],
    questions: ['Where do I work from?', 'Do I work from home?', 'Do I work remotely?'],
  },
];
