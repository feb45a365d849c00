import { Serie } from '../interfaces'

const base: Serie = {
	name: {
		en: "Base",
		fr: "Base",
		es: "Clásica",
		it: "Originale",
		de: "Grund",
		pt: "Coleção Básica"
	},
	id: "base"
}

export default base
