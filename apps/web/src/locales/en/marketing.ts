/** Copy shared by several public pages: the five steps, the headline figures, the kiosk and POS dialogs. */
export const marketing = {
  steps: {
    scan: {
      title: 'Camera palm scan',
      body: 'A phone or kiosk camera finds your hand and takes three pictures of your palm.',
      detail:
        'The app finds your knuckles in the camera picture (or you hold your palm in a drawn box) and cuts a square of your palm out of it, in ordinary light: three small grey pictures that go to our server for this one scan.',
    },
    hash: {
      title: 'Geometric hashing',
      body: 'Our server reads the lines and creases of your palm in the three pictures and turns them into one irreversible, keyed template; the pictures are dropped.',
      detail:
        'The template cannot be turned back into a picture of your palm, and without Hasta’s key it is useless to anyone else.',
    },
    consent: {
      title: 'Consent stored on chain',
      body: 'Your consent is written to an append-only log that is anchored on a public blockchain.',
      detail:
        'Polygon by default, with Celo supported. Only a fingerprint (hash) of the record goes on chain, never your palm data.',
    },
    deduct: {
      title: 'INR wallet deduction',
      body: 'The amount is deducted from your rupee wallet.',
      detail:
        'A double-entry ledger moves the money, so every rupee that leaves your wallet arrives somewhere you can trace.',
    },
    mint: {
      title: 'Transaction minted on chain',
      body: 'The payment gets its own transaction id in the same verifiable log.',
      detail:
        'It appears in your history at once, with an id you can check against the public anchor on the blockchain.',
    },
  },
  figures: {
    recognised: 'of palm scans recognised among 1 million palms',
    falseMatch: 'strangers’ scans may match someone: the target our threshold is set for',
    falseMatchValue: '1 in {{scans}}',
    verification: 'from scan to decision on our server, 1 million palms',
    verificationValue: 'Under {{seconds}} s',
    dataPoints: 'line-orientation points per palm, on average',
    patentClaims: 'patent claims filed',
    privacy: 'of raw palm images discarded',
    note: 'Palm figures measured by our benchmark on computer-generated palms under phone-camera conditions (some tilt, blur and uneven light), not on customers’ hands.',
  },
  form: {
    required: 'required',
    sending: 'Sending…',
    honeypot: 'Leave this field empty',
  },
  kiosk: {
    locateTitle: 'Locate a kiosk',
    locateIntro: 'Register your palm at a Hasta kiosk near you. Search by pincode, city or area.',
    searchLabel: 'Pincode, city or area',
    searchPlaceholder: 'e.g. 560038 or Mumbai',
    search: 'Search',
    showAll: 'Show all kiosks',
    loading: 'Loading kiosks…',
    found_one: '{{count}} kiosk found',
    found_other: '{{count}} kiosks found',
    foundFor_one: '{{count}} kiosk found for “{{query}}”',
    foundFor_other: '{{count}} kiosks found for “{{query}}”',
    none: 'No kiosks match “{{query}}”. Try another pincode or city.',
    loadFailed: 'Could not load kiosks. Please try again.',
    retry: 'Try again',
    listLabel: 'Kiosks',
    mapLabel: 'Map of Hasta kiosks in India',
    mapUnavailable: 'Map unavailable — showing the list.',
    mapLoading: 'Loading map…',
    status: 'Status',
    type: 'Type',
    hours: 'Hours',
    pincode: 'Pincode',
    statusValues: {
      Active: 'Active',
    },
    typeValues: {
      'Registration kiosk': 'Registration kiosk',
    },
  },
  host: {
    title: 'Host a kiosk',
    intro:
      'Have a space with steady footfall? Host a Hasta palm-registration kiosk and help people near you start paying with their palm.',
    name: 'Name',
    email: 'Email',
    phone: 'Phone',
    address: 'Address of the premises',
    premises: 'Type of premises',
    premisesPlaceholder: 'Select the type of premises',
    premisesOptions: {
      School: 'School',
      Office: 'Office',
      Store: 'Store',
      NGO: 'NGO',
      Other: 'Other',
    },
    footfall: 'Daily footfall',
    footfallHint: 'Roughly how many people visit each day.',
    facilities: 'Facilities',
    power: 'Reliable power supply',
    internet: 'Internet connection',
    submit: 'Submit application',
    submitting: 'Submitting…',
  },
  pos: {
    title: 'POS device specifications',
    intro:
      'Partners can use Hasta’s Android POS device, or pair the palm scanner with an existing terminal over Bluetooth.',
    specLabel: 'Specification',
    valueLabel: 'Value',
    labels: {
      os: 'Operating system',
      screen: 'Screen',
      memory: 'Memory',
      battery: 'Battery',
      connectivity: 'Connectivity',
    },
  },
};
