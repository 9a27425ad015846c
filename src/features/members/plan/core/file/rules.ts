/** The portal's limits on member fields live in shared/, where the engine and the forms read them too. */
export * from '../../../../../shared/memberRules';
