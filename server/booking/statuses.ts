// The states an order goes through, named once for the decisions (decide.ts) and the read models
// (tables.ts) alike: a leaf module, so that neither imports the other for them.

/** an order's state in its stream: none before it is held */
export type OrderStatus = 'none' | 'held' | 'issued' | 'failed' | 'expired' | 'cancelled'
