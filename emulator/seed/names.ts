// Name and address pools. Contact details use only ranges reserved for
// fiction: example.com/.org/.net mail domains, US 555-01xx numbers and the
// Australian (02) 5550 xxxx and 0491 570 xxx ranges.

export const FEMALE_FIRST_NAMES = [
  "Maria", "Emily", "Olivia", "Sophia", "Isabella", "Ava", "Mia", "Charlotte", "Amelia", "Harper",
  "Evelyn", "Abigail", "Ella", "Grace", "Chloe", "Camila", "Penelope", "Riley", "Layla", "Lillian",
  "Nora", "Zoey", "Hannah", "Addison", "Aubrey", "Ellie", "Stella", "Natalie", "Leah", "Hazel",
  "Violet", "Aurora", "Savannah", "Audrey", "Brooklyn", "Claire", "Lucy", "Anna", "Samantha", "Caroline",
  "Priya", "Aisha", "Mei", "Yuki", "Fatima", "Ananya", "Lucia", "Valentina", "Gabriela", "Ximena",
  "Sarah", "Jennifer", "Linda", "Patricia", "Barbara", "Susan", "Karen", "Nancy", "Margaret", "Deborah",
  "Rebecca", "Laura", "Michelle", "Kimberly", "Angela", "Melissa", "Stephanie", "Nicole", "Rachel", "Katherine",
  "Joan", "Dorothy", "Ruth", "Shirley", "Beverly", "Judith", "Denise", "Tamika", "Keisha", "Imani",
  "Siobhan", "Aoife", "Matilda", "Isla", "Ruby", "Willow", "Sienna", "Zara", "Ngaio", "Kirra",
] as const;

export const MALE_FIRST_NAMES = [
  "James", "Robert", "John", "Michael", "David", "William", "Richard", "Joseph", "Thomas", "Charles",
  "Christopher", "Daniel", "Matthew", "Anthony", "Mark", "Donald", "Steven", "Paul", "Andrew", "Joshua",
  "Kevin", "Brian", "George", "Timothy", "Ronald", "Edward", "Jason", "Jeffrey", "Ryan", "Jacob",
  "Gary", "Nicholas", "Eric", "Jonathan", "Stephen", "Larry", "Justin", "Scott", "Brandon", "Benjamin",
  "Samuel", "Gregory", "Alexander", "Patrick", "Frank", "Raymond", "Jack", "Dennis", "Jerry", "Tyler",
  "Aaron", "Jose", "Adam", "Nathan", "Henry", "Zachary", "Douglas", "Peter", "Kyle", "Noah",
  "Ethan", "Liam", "Lucas", "Mason", "Logan", "Oliver", "Elijah", "Mateo", "Diego", "Carlos",
  "Rahul", "Arjun", "Wei", "Hiroshi", "Omar", "Ahmed", "Kwame", "Malik", "Darnell", "Andre",
  "Hamish", "Angus", "Lachlan", "Cooper", "Harrison", "Archie", "Riley", "Jarrah", "Callum", "Fergus",
] as const;

export const LAST_NAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
  "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
  "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
  "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
  "Gomez", "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes",
  "Stewart", "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper",
  "Peterson", "Bailey", "Reed", "Kelly", "Howard", "Ramos", "Kim", "Cox", "Ward", "Richardson",
  "Watson", "Brooks", "Chavez", "Wood", "James", "Bennett", "Gray", "Mendoza", "Ruiz", "Hughes",
  "Price", "Alvarez", "Castillo", "Sanders", "Patel", "Myers", "Long", "Ross", "Foster", "Jimenez",
  "Chen", "Wang", "Singh", "Kumar", "Shah", "Okafor", "Adeyemi", "Mensah", "Haddad", "Nakamura",
  "Tanaka", "Sato", "Park", "Choi", "Kowalski", "Novak", "O'Brien", "O'Connor", "Murray", "Fitzgerald",
  "MacDonald", "Campbell-Smith", "Nguyen-Tran", "Papadopoulos", "Rossi", "Russo", "Bianchi", "Schmidt", "Müller", "Weber",
  "Dubois", "Lefebvre", "Silva", "Santos", "Oliveira", "Costa", "Kaur", "Gill", "Khan", "Hussain",
  "Walsh", "Byrne", "Ryan", "Doyle", "McCarthy", "Kennedy", "Lynch", "Quinn", "Brennan", "Donnelly",
  "Thornton", "Whitfield", "Ashby", "Pemberton", "Blackwood", "Harrington", "Fairweather", "Sinclair", "Drummond", "Lockhart",
] as const;

export const FEMALE_MIDDLE_NAMES = ["Ann", "Marie", "Lynn", "Rose", "Jane", "Elizabeth", "Louise", "Grace", "May", "Jean", "A.", "C.", "E.", "J.", "L.", "M."] as const;
export const MALE_MIDDLE_NAMES = ["James", "Lee", "Michael", "Allen", "Ray", "Edward", "Joseph", "Thomas", "Wayne", "Scott", "B.", "D.", "J.", "K.", "R.", "T."] as const;

export interface Locality {
  city: string;
  state: string;
  streets: readonly string[];
}

/** Street names per city, for facility addresses. */
export const LOCALITIES: readonly Locality[] = [
  { city: "New York", state: "NY", streets: ["Broadway", "Amsterdam Avenue", "Columbus Avenue", "West 72nd Street", "Lexington Avenue", "West 23rd Street", "Eighth Avenue"] },
  { city: "Brooklyn", state: "NY", streets: ["Atlantic Avenue", "Flatbush Avenue", "Court Street", "Seventh Avenue", "Fifth Avenue"] },
  { city: "Astoria", state: "NY", streets: ["Steinway Street", "Ditmars Boulevard", "31st Street", "Broadway"] },
  { city: "Chicago", state: "IL", streets: ["North Clark Street", "North Halsted Street", "West Belmont Avenue", "North Lincoln Avenue", "West Fullerton Avenue"] },
  { city: "Evanston", state: "IL", streets: ["Church Street", "Davis Street", "Sherman Avenue"] },
  { city: "Oak Park", state: "IL", streets: ["Lake Street", "Madison Street", "North Marion Street"] },
  { city: "Denver", state: "CO", streets: ["East Colfax Avenue", "East 17th Avenue", "Pennsylvania Street", "Logan Street"] },
  { city: "Sydney", state: "NSW", streets: ["George Street", "Pitt Street", "Macquarie Street", "Elizabeth Street"] },
  { city: "Parramatta", state: "NSW", streets: ["Church Street", "Macquarie Street", "George Street"] },
  { city: "Newtown", state: "NSW", streets: ["King Street", "Enmore Road"] },
  { city: "Mosman", state: "NSW", streets: ["Military Road", "Spit Road"] },
  { city: "Bondi", state: "NSW", streets: ["Bondi Road", "Campbell Parade", "Hall Street"] },
  { city: "Lord Howe Island", state: "NSW", streets: ["Lagoon Road", "Ned's Beach Road", "Anderson Road"] },
  // Orgs D, E and F (EMULATOR_SCALE=large only).
  { city: "Seattle", state: "WA", streets: ["Pine Street", "Madison Street", "Broadway East", "Rainier Avenue South", "NE 45th Street"] },
  { city: "Bellevue", state: "WA", streets: ["Bellevue Way NE", "NE 8th Street", "116th Avenue NE"] },
  { city: "Portland", state: "OR", streets: ["NW 23rd Avenue", "SE Hawthorne Boulevard", "NE Broadway", "SW Morrison Street"] },
  { city: "Phoenix", state: "AZ", streets: ["North Central Avenue", "East Camelback Road", "North 7th Street"] },
  { city: "Melbourne", state: "VIC", streets: ["Collins Street", "Swanston Street", "Lygon Street", "Flinders Lane"] },
  { city: "Richmond", state: "VIC", streets: ["Bridge Road", "Swan Street", "Church Street"] },
  { city: "Brisbane", state: "QLD", streets: ["Queen Street", "Adelaide Street", "Ann Street"] },
  { city: "Adelaide", state: "SA", streets: ["King William Street", "Rundle Street", "Hutt Street"] },
  { city: "Dallas", state: "TX", streets: ["McKinney Avenue", "Cedar Springs Road", "Lemmon Avenue", "Ross Avenue"] },
  { city: "Houston", state: "TX", streets: ["Westheimer Road", "Montrose Boulevard", "Yale Street", "Heights Boulevard"] },
  { city: "El Paso", state: "TX", streets: ["Mesa Street", "Montana Avenue", "Stanton Street"] },
];

export const EMAIL_DOMAINS = ["example.com", "example.org", "example.net"] as const;

/** Fictional US numbers: 555-0100 to 555-0199 in real area codes. */
export const US_AREA_CODES_BY_STATE: Readonly<Record<string, readonly string[]>> = {
  NY: ["212", "646", "718", "917"],
  IL: ["312", "773", "847"],
  CO: ["303", "720"],
  WA: ["206", "425"],
  OR: ["503", "971"],
  AZ: ["480", "602"],
  TX: ["214", "713", "915"],
};

/** Australian landline area codes by state (kind B patients' landlines); NSW's when unknown. */
export const AU_AREA_CODES_BY_STATE: Readonly<Record<string, string>> = { NSW: "02", VIC: "03", QLD: "07", SA: "08" };

/** ACMA's numbers for use in fiction (mobile). */
export const AU_FICTIONAL_MOBILES = [
  "0491 570 006", "0491 570 156", "0491 570 157", "0491 570 158", "0491 570 159", "0491 570 110", "0491 570 313",
  "0491 570 737", "0491 571 266", "0491 571 491", "0491 571 804", "0491 572 549", "0491 572 665", "0491 572 983",
  "0491 573 770", "0491 573 087", "0491 574 118", "0491 574 632", "0491 575 254", "0491 575 789", "0491 576 398",
  "0491 576 801", "0491 577 426", "0491 577 644", "0491 578 957", "0491 578 148", "0491 578 888", "0491 579 212",
  "0491 579 760", "0491 579 455",
] as const;

/** Lower-case ASCII letters only, for usernames and e-mail local parts. */
export function asciiHandle(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");
}
